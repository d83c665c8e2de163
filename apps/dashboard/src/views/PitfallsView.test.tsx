import { findPitfallPreset, pitfallRunParams, type PitfallPreset } from '@oversell/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, type Route } from '../test/fake-api';
import { FakeEventSource } from '../test/fake-event-source';
import { faultEvent, result, run, SCENARIOS, STRATEGIES } from '../test/fixtures';
import { renderApp } from '../test/render';

const preset = findPitfallPreset('expiry-during-business') as PitfallPreset;
const queued = (id: string) => run({ id, status: 'queued', startedAt: null, finishedAt: null, result: null });
const completed = (id: string, oversold: number) =>
  run({ id, result: result({ reconciliation: { ...result().reconciliation, oversold }, faults: [faultEvent({ kind: 'crash', endedAt: null })] }) });

function openPitfalls(hash: string, routes: Route[] = []) {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  const api = fakeApi([{ path: 'strategies', body: STRATEGIES }, { path: 'scenarios', body: SCENARIOS }, { path: 'runs?limit=50', body: [] }, ...routes]);
  renderApp(hash);
  return api;
}

describe('PitfallsView', () => {
  it('explains the picked pitfall in the articles\' terms and queues its broken side, then its fix, with the same settings', async () => {
    const ids = ['run-broken', 'run-fix'];
    const api = openPitfalls('#/pitfalls', [
      { method: 'POST', path: 'runs', status: 201, body: () => queued(ids.shift() ?? 'extra') },
      { path: 'runs/run-broken', body: queued('run-broken') },
      { path: 'runs/run-fix', body: queued('run-fix') },
    ]);
    const user = userEvent.setup();
    expect(await screen.findByTestId('run-pitfall')).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Pitfall'), preset.name);
    await waitFor(() => expect(window.location.hash).toBe(`#/pitfalls/${preset.name}`));
    const explanation = await screen.findByTestId('pitfall-explanation');
    expect(explanation).toHaveTextContent(preset.explanation.whatHappens.en);
    expect(explanation).toHaveTextContent(preset.explanation.whyTheFixHolds.en);
    expect(explanation).toHaveTextContent('lock TTL 250 ms · business delay 500 ms');

    await user.click(screen.getByRole('button', { name: 'Run both sides' }));
    await waitFor(() => expect(window.location.hash).toBe(`#/pitfalls/${preset.name}/run-broken,run-fix`));
    const posted = api.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(posted).toEqual(preset.sides.map((side) => pitfallRunParams(side, preset.name)));
    expect(posted.map((p) => (p as { strategy: string }).strategy)).toEqual(['uuid-lua', 'watchdog']);
    expect(await screen.findByTestId('pitfall-side-broken')).toHaveAttribute('data-verdict', 'pending');
  });

  it('shows both sides side by side and judges them: the broken side oversold, the fix stayed at 0', async () => {
    openPitfalls(`#/pitfalls/${preset.name}/run-broken,run-fix`, [
      { path: 'runs/run-broken', body: completed('run-broken', 4) },
      { path: 'runs/run-fix', body: completed('run-fix', 0) },
    ]);
    const broken = await screen.findByTestId('pitfall-side-broken');
    const fix = screen.getByTestId('pitfall-side-fix');
    await waitFor(() => expect(broken).toHaveAttribute('data-verdict', 'showed'));
    expect(within(broken).getByTestId('pitfall-verdict')).toHaveTextContent('showed the pitfall');
    expect(within(broken).getByTestId('stock-headline')).toHaveAttribute('data-value', '4');
    expect(within(broken).getByTestId('reconciliation-oversold')).toHaveTextContent('4');
    expect(within(broken).getByTestId('lock-timeline')).toHaveAttribute('data-faults', '1');
    expect(within(broken).getByTestId('faults-fired')).toHaveTextContent('crash at release-checked-before-del on order-1');
    await waitFor(() => expect(fix).toHaveAttribute('data-verdict', 'clean'));
    expect(within(fix).getByTestId('pitfall-verdict')).toHaveTextContent('stayed clean');
    expect(within(fix).getByTestId('stock-headline')).toHaveAttribute('data-value', '0');
  });

  it('says when a side did not do what its role says, and follows a live side to its result', async () => {
    openPitfalls(`#/pitfalls/${preset.name}/run-broken,run-fix`, [
      { path: 'runs/run-broken', body: run({ id: 'run-broken', status: 'running', result: null }) },
      { path: 'runs/run-fix', body: completed('run-fix', 2) },
    ]);
    const fix = await screen.findByTestId('pitfall-side-fix');
    await waitFor(() => expect(fix).toHaveAttribute('data-verdict', 'not-clean'));
    expect(within(fix).getByTestId('pitfall-verdict')).toHaveTextContent('did NOT stay clean');

    const broken = screen.getByTestId('pitfall-side-broken');
    expect(broken).toHaveAttribute('data-verdict', 'pending');
    await waitFor(() => expect(FakeEventSource.instances.some((s) => s.url === 'api/runs/run-broken/events')).toBe(true));
    const source = FakeEventSource.instances.find((s) => s.url === 'api/runs/run-broken/events') as FakeEventSource;
    act(() => source.emit({ type: 'result', runId: 'run-broken', run: completed('run-broken', 0) }));
    await waitFor(() => expect(broken).toHaveAttribute('data-verdict', 'missed'));
  });

  it('hot key: judges the one lock by the stock it left unsold and shows both sides\' units per second', async () => {
    const hotKey = findPitfallPreset('hot-key') as PitfallPreset;
    const { initialStock } = hotKey.sides[0].settings;
    const hotKeyRun = (id: string, remaining: number, unitsPerSec: number) =>
      run({
        id,
        result: result({
          reconciliation: { ...result().reconciliation, initialStock, remaining, sold: initialStock - remaining, oversold: 0 },
          contendedPhase: { soldOut: remaining === 0, durationMs: remaining === 0 ? 1000 : 4000, attempts: 300, units: initialStock - remaining, unitsPerSec, p50: 5, p99: 40 },
        }),
      });
    openPitfalls(`#/pitfalls/${hotKey.name}/run-broken,run-fix`, [
      { path: 'runs/run-broken', body: hotKeyRun('run-broken', 30, 12) },
      { path: 'runs/run-fix', body: hotKeyRun('run-fix', 0, 80) },
    ]);
    expect(await screen.findByTestId('pitfall-explanation')).toHaveTextContent('20 segments (segmented)');
    const broken = await screen.findByTestId('pitfall-side-broken');
    const fix = screen.getByTestId('pitfall-side-fix');
    await waitFor(() => expect(broken).toHaveAttribute('data-verdict', 'showed'));
    await waitFor(() => expect(fix).toHaveAttribute('data-verdict', 'clean'));
    expect(within(broken).getByTestId('pitfall-contended-phase')).toHaveTextContent('never sold out, 12 units/s');
    expect(within(fix).getByTestId('pitfall-contended-phase')).toHaveTextContent('sold out in 1 s, 80 units/s');
  });

  it('says so for a preset name it does not know', async () => {
    openPitfalls('#/pitfalls/no-such-thing');
    expect(await screen.findByText('There is no pitfall preset named no-such-thing.')).toBeInTheDocument();
    expect(await screen.findByTestId('run-pitfall')).toBeDisabled();
  });

  const queueFull = { statusCode: 429, error: 'run_queue_full', message: 'the run queue is full: 20 of at most 20 runs are waiting, no room for 1; nothing was queued' };

  it('says which side was queued and which was refused when the second side is refused, and then queues only the missing side', async () => {
    const api = openPitfalls(`#/pitfalls/${preset.name}`, [
      { path: 'runs/run-broken', body: queued('run-broken') },
      { path: 'runs/run-fix', body: queued('run-fix') },
    ]);
    // The first side is queued; the queue is full for the second.
    api.route({
      method: 'POST',
      path: 'runs',
      status: 201,
      body: () => {
        api.route({ method: 'POST', path: 'runs', status: 429, body: queueFull });
        return queued('run-broken');
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run both sides' }));

    const outcome = await screen.findByTestId('pitfall-queued');
    expect(outcome).toHaveTextContent('Queued the broken side (uuid-lua, fixed lease) as run run-broken.');
    expect(within(outcome).getByRole('link', { name: 'run-broken' })).toHaveAttribute('href', '/#/runs/run-broken');
    expect(screen.getByTestId('api-error')).toHaveTextContent('Could not queue the fix side (watchdog, renewed lease). run_queue_full: the run queue is full');
    await waitFor(() => expect(window.location.hash).toBe(`#/pitfalls/${preset.name}/run-broken`));
    expect(await screen.findByTestId('pitfall-side-broken')).toHaveAttribute('data-run-id', 'run-broken');
    expect(screen.getByTestId('pitfall-side-fix')).toHaveTextContent('Not queued');

    // Again: only the fix side is sent, beside the broken side already queued.
    api.route({ method: 'POST', path: 'runs', status: 201, body: queued('run-fix') });
    await user.click(screen.getByRole('button', { name: 'Queue the fix side' }));
    await waitFor(() => expect(window.location.hash).toBe(`#/pitfalls/${preset.name}/run-broken,run-fix`));
    const posted = api.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { strategy: string }).strategy);
    expect(posted).toEqual(['uuid-lua', 'watchdog', 'watchdog']);
    expect(screen.queryByTestId('api-error')).not.toBeInTheDocument();
  });

  it("clears the previous preset's error when another preset is picked", async () => {
    openPitfalls(`#/pitfalls/${preset.name}`, [{ method: 'POST', path: 'runs', status: 429, body: queueFull }]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run both sides' }));
    expect(await screen.findByTestId('api-error')).toHaveTextContent('run_queue_full');
    await user.selectOptions(screen.getByLabelText('Pitfall'), 'mis-deletion');
    await waitFor(() => expect(window.location.hash).toBe('#/pitfalls/mis-deletion'));
    expect(screen.queryByTestId('api-error')).not.toBeInTheDocument();
  });

  it('never says a failed side held its stock', async () => {
    openPitfalls(`#/pitfalls/${preset.name}/run-broken,run-fix`, [
      { path: 'runs/run-broken', body: run({ id: 'run-broken', status: 'failed', failure: 'the load driver crashed', result: null }) },
      { path: 'runs/run-fix', body: completed('run-fix', 0) },
      { path: 'products/1/inventory', status: 404, body: { statusCode: 404, error: 'product_not_found', message: 'no product 1' } },
    ]);
    const broken = await screen.findByTestId('pitfall-side-broken');
    await waitFor(() => expect(broken).toHaveAttribute('data-verdict', 'failed'));
    expect(broken).not.toHaveTextContent('every unit sold at most once');
    expect(within(broken).queryByTestId('stock-headline')).not.toBeInTheDocument();
    expect(within(broken).getByTestId('run-failed')).toHaveTextContent('This run failed: the load driver crashed. Its figures were not recorded.');
  });
});
