import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findLesson, findPitfallPreset, LESSONS, PITFALL_PRESETS, strategyEntry } from '@oversell/contracts';
import { GLOSSARY } from './i18n/glossary';
import { createI18n, missingKeys } from './i18n/i18n';
import { fakeApi } from './test/fake-api';
import { FakeEventSource } from './test/fake-event-source';
import { faultEvent, lockEvent, result, run, SCENARIOS, STRATEGIES } from './test/fixtures';
import { renderApp } from './test/render';

// The whole page in Chinese: every view asks only for keys zh-CN has (test/setup.ts fails a test on a
// missing one), and shows the Chinese, not the English, of the texts it owns.
const chinese = createI18n({ language: 'zh-CN' });

// A run that did not sell out and sold units twice, with a fault, lock holdings and its reconciliation.
const soldTwice = run({
  id: 'r1',
  params: { strategy: 'uuid-lua', initialStock: 100, lockTtlMs: 100, businessDelayMs: 250, load: { connections: 20, durationSec: 5 } },
  result: result({
    reconciliation: { ...result().reconciliation, initialStock: 100, sold: 66, remaining: 77, oversold: 0, lostUpdates: 43, exclusionViolations: 65 },
    faults: [faultEvent({ kind: 'crash', endedAt: null })],
    lockEvents: [lockEvent({ requestId: 'a', acquiredAt: 0, releasedAt: 50 }), lockEvent({ requestId: 'b', instance: 'order-2', acquiredAt: 20, releasedAt: 60 })],
  }),
});

function open(hash: string) {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  fakeApi([
    { path: 'strategies', body: STRATEGIES },
    { path: 'scenarios', body: SCENARIOS },
    { path: 'runs?limit=50', body: [soldTwice] },
    { path: 'runs/r1', body: soldTwice },
  ]);
  renderApp(hash, (app) => <I18nextProvider i18n={chinese}>{app}</I18nextProvider>);
}

describe('the dashboard in zh-CN', () => {
  beforeEach(() => void chinese.changeLanguage('zh-CN'));

  it('sets lang on the document and names the views in Chinese', async () => {
    open('#/lab');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(await screen.findByTestId('nav-glossary')).toHaveTextContent('术语表');
    expect(screen.getByTestId('nav-pitfalls')).toHaveTextContent('陷阱');
  });

  it('Lab: the form, the headline, the charts, the lock timeline and the reconciliation', async () => {
    open('#/lab/r1');
    expect(await screen.findByRole('button', { name: '开始运行' })).toBeInTheDocument();
    expect(screen.getByLabelText('初始库存')).toBeInTheDocument();
    const headline = await screen.findByTestId('stock-headline');
    expect(headline).toHaveTextContent('43 件被卖了两次');
    expect(headline).toHaveTextContent('卖出 66 件，库存 100 件中却还剩 77 件');
    expect(screen.getByTestId('stock-chart')).toHaveTextContent('库存随时间变化');
    expect(screen.getByTestId('lock-timeline')).toHaveTextContent('锁时间线');
    expect(screen.getByTestId('lock-overlap-count')).toHaveTextContent('2 次重叠');
    expect(screen.getByTestId('faults-fired')).toHaveTextContent('进程在此处终止');
    expect(screen.getByTestId('reconciliation-stores-agree')).toHaveTextContent('存储一致否');
    expect(screen.getByTestId('run-status')).toHaveTextContent('已完成');
  });

  it('Pitfalls: the preset list, its explanation and its sides in Chinese, from the presets themselves', async () => {
    const preset = findPitfallPreset('expiry-during-business');
    open(`#/pitfalls/${preset?.name}`);
    const picker = await screen.findByTestId('pitfall-preset');
    expect(within(picker).getAllByRole('option').slice(1).map((o) => o.textContent)).toEqual(PITFALL_PRESETS.map((p) => p.title['zh-CN']));
    const explanation = screen.getByTestId('pitfall-explanation');
    expect(explanation).toHaveTextContent('业务比租约活得更久');
    expect(explanation).toHaveTextContent(preset?.explanation.whyTheFixHolds['zh-CN'] ?? '');
    expect(explanation).toHaveTextContent('两侧参数：库存 5 · 锁 TTL 250 ms · 业务耗时 500 ms · 40 个连接 · 4 s');
    expect(screen.getByRole('button', { name: '运行两侧' })).toBeInTheDocument();
  });

  it('Explain: the headings, and the strategies’ own texts from the catalogue', async () => {
    open('#/explain/lua-decrement');
    expect(await screen.findByRole('heading', { name: '如何选锁' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { name: '逐步说明' }).length).toBe(STRATEGIES.length);
    const lua = strategyEntry('lua-decrement').texts['zh-CN'];
    expect(within(screen.getByTestId('explain-lua-decrement')).getByRole('heading', { level: 2 })).toHaveTextContent(lua.title);
    expect(within(screen.getByTestId('explain-contents')).getByRole('link', { name: lua.title })).toBeInTheDocument();
    expect(screen.getByTestId('choosing-a-lock-recorded')).toHaveTextContent('在另一台机器');
  });

  it('Compare and History: captions, headers and the contended phase', async () => {
    open('#/compare');
    expect(await screen.findByRole('columnheader', { name: '重复卖出' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '全部运行' })).toBeInTheDocument();
    open('#/runs');
    expect(await screen.findByText('最近 1 次运行，最新的在前')).toBeInTheDocument();
  });

  it('Lessons: the course in Chinese, from the lesson table', async () => {
    open('#/lessons');
    const list = await screen.findByTestId('lesson-list');
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(LESSONS.map((l) => l.title['zh-CN']));
  });

  it('Lessons: a lesson in presenter mode, with what it needs', async () => {
    open('#/lessons/master-failover?presenter=1');
    const lesson = findLesson('master-failover');
    expect(await screen.findByTestId('lesson-title')).toHaveTextContent(lesson?.title['zh-CN'] ?? '');
    expect(screen.getByTestId('lesson')).toHaveTextContent(lesson?.question['zh-CN'] ?? '');
    expect(screen.getByTestId('lesson-needs')).toHaveTextContent('npm run demo -- --sentinels');
    expect(screen.getByRole('button', { name: '运行本课（r）' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '发生了什么，为什么' })).toBeInTheDocument();
  });

  it('Follow: waiting for the presenter, in Chinese', async () => {
    open('#/follow');
    expect(await screen.findByText(/跟随讲师/)).toBeInTheDocument();
  });

  it('Glossary: every term in both languages, explained in Chinese', async () => {
    open('#/glossary');
    const entries = await screen.findAllByTestId('glossary-entry');
    expect(entries).toHaveLength(GLOSSARY.length);
    const watchdog = entries.find((row) => row.textContent?.includes('watchdog'));
    expect(watchdog).toHaveTextContent('看门狗');
    expect(watchdog).toHaveTextContent('持有者进程中的定时器');
  });

  it('follows the language switch back to English', async () => {
    open('#/glossary');
    await userEvent.setup().selectOptions(await screen.findByTestId('language-switch'), 'en');
    expect(document.documentElement.lang).toBe('en');
    expect(screen.getByRole('heading', { name: 'Glossary' })).toBeInTheDocument();
    expect(missingKeys).toEqual([]);
  });
});
