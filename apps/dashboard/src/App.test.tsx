import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { findPitfallPreset } from '@oversell/contracts';
import { fakeApi } from './test/fake-api';
import { FakeEventSource } from './test/fake-event-source';
import { run, SCENARIOS, STRATEGIES } from './test/fixtures';
import { renderApp } from './test/render';

function stubApi() {
  vi.stubGlobal('EventSource', FakeEventSource);
  fakeApi([
    { path: 'strategies', body: STRATEGIES },
    { path: 'scenarios', body: SCENARIOS },
    { path: 'runs?limit=50', body: [run({ id: 'r1' })] },
    { path: 'runs/r1', body: run({ id: 'r1' }) },
    { path: 'runs/r2', body: run({ id: 'r2' }) },
  ]);
}

describe('App', () => {
  it('shows "cannot reach the order service" instead of crashing when there is no API', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderApp('#/lab');
    expect(await screen.findByTestId('service-unreachable')).toHaveTextContent(
      'Cannot reach the order service, so could not load the strategies (network error)',
    );
    // The form still works from the strategy names the dashboard knows.
    expect(screen.getByRole('option', { name: 'Atomic Lua decrement' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start run' })).toBeEnabled();
  });

  it('navigates between views with the tabs and marks the current one', async () => {
    stubApi();
    renderApp('#/lab');
    expect(await screen.findByRole('link', { name: 'Lab' })).toHaveAttribute('aria-current', 'page');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Compare' }));
    expect(await screen.findByTestId('compare-view')).toBeInTheDocument();
    expect(window.location.hash).toBe('#/compare');
    expect(screen.getByRole('link', { name: 'Compare' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Lab' })).not.toHaveAttribute('aria-current');
  });

  // Links written before the router changed must still land where they pointed.
  describe('every address the dashboard has had lands on its view', () => {
    it.each([
      ['#/lab', 'lab-view', 'nav-lab'],
      ['#/compare', 'compare-view', 'nav-compare'],
      ['#/pitfalls', 'pitfalls-view', 'nav-pitfalls'],
      ['#/explain', 'explain-view', 'nav-explain'],
      ['#/runs', 'history-view', 'nav-history'],
      ['#/glossary', 'glossary-view', 'nav-glossary'],
    ])('%s', async (hash, view, tab) => {
      stubApi();
      renderApp(hash);
      expect(await screen.findByTestId(view)).toBeInTheDocument();
      expect(screen.getByTestId(tab)).toHaveAttribute('aria-current', 'page');
      expect(window.location.hash).toBe(hash);
    });

    it('#/lab/<id>: the lab watching that run', async () => {
      stubApi();
      renderApp('#/lab/r1');
      const lab = await screen.findByTestId('lab-view');
      expect(await within(lab).findByTestId('run-panel')).toHaveAttribute('data-run-id', 'r1');
      expect(screen.getByTestId('start-run')).toBeInTheDocument();
    });

    it('#/runs/<id>: that stored run, read-only, under the History tab', async () => {
      stubApi();
      renderApp('#/runs/r1');
      const stored = await screen.findByTestId('stored-run-view');
      expect(await within(stored).findByTestId('run-panel')).toHaveAttribute('data-run-id', 'r1');
      expect(screen.queryByTestId('start-run')).toBeNull();
      expect(screen.getByTestId('nav-history')).toHaveAttribute('aria-current', 'page');
    });

    it('#/pitfalls/<preset>/<brokenId>,<fixId>: the preset with both sides’ runs', async () => {
      const preset = findPitfallPreset('expiry-during-business');
      stubApi();
      renderApp(`#/pitfalls/${preset?.name}/r1,r2`);
      await screen.findByTestId('pitfalls-view');
      expect(screen.getByTestId('pitfall-preset')).toHaveValue(preset?.name);
      expect(screen.getByTestId('pitfall-side-broken')).toHaveAttribute('data-run-id', 'r1');
      expect(screen.getByTestId('pitfall-side-fix')).toHaveAttribute('data-run-id', 'r2');
    });

    it('#/history: the History tab', async () => {
      stubApi();
      renderApp('#/history');
      expect(await screen.findByTestId('history-view')).toBeInTheDocument();
      expect(window.location.hash).toBe('#/runs');
    });

    it('#/explain/<strategy> and the old #strategy-<name> anchor: the Explain view at that strategy', async () => {
      stubApi();
      renderApp('#strategy-uuid-lua');
      expect(await screen.findByTestId('explain-view')).toBeInTheDocument();
      expect(window.location.hash).toBe('#/explain/uuid-lua');
    });

    it('#/explain/<strategy> from another view: that section, scrolled to after the router has put the page at the top', async () => {
      const toTop = vi.spyOn(window, 'scrollTo');
      const toSection = vi.spyOn(Element.prototype, 'scrollIntoView');
      stubApi();
      renderApp('#/lab');
      await screen.findByTestId('strategy-brief');
      window.location.hash = '#/explain/lua-decrement';
      const section = await screen.findByTestId('explain-lua-decrement');
      await waitFor(() => expect(toTop).toHaveBeenCalled());
      await waitFor(() => expect(toSection.mock.contexts.at(-1)).toBe(section));
      expect(Math.max(...toSection.mock.invocationCallOrder)).toBeGreaterThan(Math.max(...toTop.mock.invocationCallOrder));
    });

    it('anything else: the lab', async () => {
      stubApi();
      renderApp('#/nowhere');
      expect(await screen.findByTestId('lab-view')).toBeInTheDocument();
      expect(window.location.hash).toBe('#/lab');
    });
  });
});
