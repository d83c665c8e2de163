import { faultOutcomesText, figureText, LOCK_FAULTS, strategyEntry, type ChoosingALock } from '@oversell/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import generated from '../generated/choosing-a-lock.json';
import { createI18n } from '../i18n/i18n';
import { fakeApi } from '../test/fake-api';
import { STRATEGIES, strategy } from '../test/fixtures';
import { i18n } from '../test/i18n';
import { renderWithClient } from '../test/render';
import { ExplainView } from './ExplainView';

const LUA = strategyEntry('lua-decrement').texts;

describe('ExplainView', () => {
  it('explains each strategy in its catalogue words: its steps, its script (collapsed), its guarantee and pitfall, and where it shows', async () => {
    fakeApi([{ path: 'strategies', body: STRATEGIES }]);
    renderWithClient(<ExplainView />);

    const lua = await screen.findByTestId('explain-lua-decrement');
    expect(within(lua).getByRole('heading', { level: 2 })).toHaveTextContent(LUA.en.title);
    expect(within(lua).getAllByRole('listitem').map((s) => s.textContent)).toEqual(LUA.en.steps);
    const script = lua.querySelector('details');
    expect(script).not.toHaveAttribute('open');
    expect(script?.querySelector('summary')).toHaveTextContent('decrement.lua');
    const code = script?.querySelector('pre code');
    expect(code).toHaveTextContent("local s = tonumber(redis.call('GET', KEYS[1]))");
    expect(code).toHaveClass('language-lua');
    expect(within(lua).getByText(LUA.en.guarantee)).toBeInTheDocument();
    expect(within(lua).getByText(LUA.en.pitfall)).toBeInTheDocument();
    expect(within(lua).getByText(LUA.en.symptom)).toBeInTheDocument();

    expect(screen.getByTestId('explain-no-lock').querySelector('details')).toBeNull();
  });

  it('opens with contents: every strategy, grouped by kind, each linking to its section’s address', async () => {
    fakeApi([{ path: 'strategies', body: STRATEGIES }]);
    renderWithClient(<ExplainView />);
    const contents = await screen.findByTestId('explain-contents');
    const groups = within(contents).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(groups).toEqual(['No lock', 'Locks', 'Atomic store operations']);
    const links = within(contents).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(STRATEGIES.map((s) => `/#/explain/${s.name}`));
    expect(links.map((link) => link.textContent)).toEqual(STRATEGIES.map((s) => strategyEntry(s.name).texts.en.title));
  });

  it('scrolls to the strategy its address names once the sections exist, and again from the contents', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    fakeApi([{ path: 'strategies', body: STRATEGIES }]);
    renderWithClient(<ExplainView strategy="lua-decrement" />);
    const section = await screen.findByTestId('explain-lua-decrement');
    expect(section).toHaveAttribute('id', 'strategy-lua-decrement');
    expect(scrolled.mock.contexts).toEqual([section]);

    await userEvent.setup().click(within(screen.getByTestId('explain-contents')).getByRole('link', { name: strategyEntry('naive-setnx').texts.en.title }));
    expect(scrolled.mock.contexts.at(-1)).toBe(screen.getByTestId('explain-naive-setnx'));
    expect(window.location.hash).toBe('#/explain/naive-setnx');
  });

  it('in Chinese: the strategies’ own texts from the catalogue, the scripts as the service sent them', async () => {
    fakeApi([{ path: 'strategies', body: STRATEGIES }]);
    renderWithClient(
      <I18nextProvider i18n={createI18n({ language: 'zh-CN' })}>
        <ExplainView />
      </I18nextProvider>,
    );
    const lua = await screen.findByTestId('explain-lua-decrement');
    const zh = LUA['zh-CN'];
    expect(within(lua).getByRole('heading', { level: 2 })).toHaveTextContent(zh.title);
    expect(within(lua).getAllByRole('listitem').map((s) => s.textContent)).toEqual(zh.steps);
    expect(within(lua).getByText(zh.description)).toBeInTheDocument();
    expect(within(lua).getByText(zh.guarantee)).toBeInTheDocument();
    expect(within(lua).getByText(zh.reproduce)).toBeInTheDocument();
    expect(within(lua).getByText(zh.symptom)).toBeInTheDocument();
    expect(lua.querySelector('pre code')).toHaveTextContent("local s = tonumber(redis.call('GET', KEYS[1]))");
    expect(within(screen.getByTestId('explain-contents')).getByRole('heading', { level: 3, name: '存储的原子操作' })).toBeInTheDocument();
  });

  it('names the lock service a strategy needs besides Redis and MySQL', async () => {
    fakeApi([{ path: 'strategies', body: [strategy(), strategy({ name: 'etcd' })] }]);
    renderWithClient(
      <I18nextProvider i18n={i18n}>
        <ExplainView />
      </I18nextProvider>,
    );
    expect(await within(await screen.findByTestId('explain-etcd')).findByText('needs etcd')).toHaveAttribute('title', 'ETCD_ENDPOINTS; npm run demo starts it');
    expect(within(screen.getByTestId('explain-no-lock')).queryByText(/^needs/)).toBeNull();
  });

  it('opens with "Choosing a lock": one row per row of the generated JSON, in its order, with its figures and its catalogue words', async () => {
    const data = generated as ChoosingALock;
    fakeApi([
      { path: 'strategies', body: STRATEGIES },
      { path: 'lab-figures/choosing-a-lock', status: 204, body: undefined },
    ]);
    renderWithClient(
      <I18nextProvider i18n={i18n}>
        <ExplainView />
      </I18nextProvider>,
    );
    const section = await screen.findByTestId('choosing-a-lock');

    const rows = within(within(section).getByTestId('choosing-a-lock-figures')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.dataset.testid)).toEqual(data.rows.map((row) => `choice-${row.strategy}`));
    expect(data.rows.length).toBeGreaterThan(0);
    for (const row of data.rows) {
      const choice = strategyEntry(row.strategy).texts.en.choice!;
      const cells = within(screen.getByTestId(`choice-${row.strategy}`)).getAllByRole('cell').map((cell) => cell.textContent);
      expect(cells.slice(0, 5)).toEqual([choice.runsOn, choice.complexity, choice.reliability, figureText(row.ordersPerSec), figureText(row.p99Ms, 1)]);
      for (const fault of LOCK_FAULTS) {
        expect(screen.getByTestId(`choice-${row.strategy}-${fault}`)).toHaveTextContent(`measured: ${faultOutcomesText(row.underFault[fault])}`);
      }
    }
    expect(within(section).getByTestId('choosing-a-lock-recorded')).toHaveTextContent(/^Recorded .* on another machine/);
  });

  it("shows this lab's own figures once its benches have run, labelled as measured here, instead of the recorded ones", async () => {
    const recorded = generated as ChoosingALock;
    const lab: ChoosingALock = {
      ...recorded,
      command: 'GET /api/lab-figures/choosing-a-lock',
      generatedAt: '2026-12-02T05:20:00.000Z',
      rows: recorded.rows.map((row, i) => ({ ...row, ordersPerSec: 1000 + i, p99Ms: 12.5 })),
    };
    fakeApi([
      { path: 'strategies', body: STRATEGIES },
      { path: 'lab-figures/choosing-a-lock', body: lab },
    ]);
    renderWithClient(
      <I18nextProvider i18n={i18n}>
        <ExplainView />
      </I18nextProvider>,
    );
    const notice = await screen.findByTestId('choosing-a-lock-measured-here');
    expect(notice).toHaveTextContent(/^Measured by this lab .*December 2, 2026/);
    expect(screen.queryByTestId('choosing-a-lock-recorded')).toBeNull();
    const first = lab.rows[0];
    expect(within(screen.getByTestId(`choice-${first.strategy}`)).getAllByRole('cell')[3]).toHaveTextContent(figureText(1000));
  });

  it('says when the service cannot be reached', async () => {
    fakeApi([{ path: 'strategies', status: 502, body: 'Bad Gateway' }]);
    renderWithClient(
      <I18nextProvider i18n={i18n}>
        <ExplainView />
      </I18nextProvider>,
    );
    expect(await screen.findByTestId('service-unreachable')).toHaveTextContent('Cannot reach the order service');
  });
});
