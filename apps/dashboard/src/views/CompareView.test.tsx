import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NOOP_TARGET } from '@oversell/contracts';
import { DEFAULT_FORM_VALUES } from '../lib/run-form';
import { captureDownloads } from '../test/downloads';
import { fakeApi } from '../test/fake-api';
import { CEILING_SCENARIO, result, run, SCENARIOS } from '../test/fixtures';
import { renderWithClient } from '../test/render';
import { CompareView } from './CompareView';

const noopRun = run({
  id: 'noop-1',
  params: { strategy: NOOP_TARGET, initialStock: 0, load: { connections: 60 }, batchId: 'b1' },
  result: result({ throughput: 1000 }),
});
const noLockRun = run({ id: 'nl-1', params: { ...run().params, batchId: 'b1' }, result: result({ throughput: 720 }) });
const luaRun = run({
  id: 'lua-1',
  params: { ...run().params, strategy: 'lua-decrement', batchId: 'b1' },
  result: result({
    throughput: 950,
    latency: { count: 1, mean: 1, p50: 1.5, p90: 2, p99: 3.25, max: 4 },
    reconciliation: { ...result().reconciliation, oversold: 0, sold: 50, storesAgree: true },
    contendedPhase: { soldOut: true, durationMs: 2000, attempts: 120, units: 50, unitsPerSec: 25, p50: 1, p99: 2 },
  }),
});

/** The lease outlived, stock left: 21 units sold twice, none beyond the stock. */
const uuidLuaRun = run({
  id: 'ul-1',
  params: { ...run().params, strategy: 'uuid-lua', batchId: 'b1' },
  result: result({ reconciliation: { ...result().reconciliation, initialStock: 50, sold: 33, remaining: 38, oversold: 0, lostUpdates: 21, storesAgree: false } }),
});

function openCompare(runs = [uuidLuaRun, luaRun, noLockRun, noopRun]) {
  const api = fakeApi([
    { path: 'runs?limit=50', body: runs },
    { path: 'scenarios', body: [...SCENARIOS, CEILING_SCENARIO] },
    {
      method: 'POST',
      path: 'runs/batch',
      status: 201,
      body: { batchId: 'b2', runs: [run({ id: 'q1', status: 'queued', result: null, params: { ...run().params, batchId: 'b2' } })] },
    },
  ]);
  renderWithClient(<CompareView values={{ ...DEFAULT_FORM_VALUES, initialStock: '77' }} />);
  return api;
}

describe('CompareView', () => {
  it("shows each strategy's figures, with throughput as a share of the no-op ceiling", async () => {
    openCompare();
    const noLock = await screen.findByTestId('compare-row-no-lock');
    expect(within(noLock).getByTestId('compare-ratio')).toHaveTextContent('72 %');
    expect(within(noLock).getByTestId('compare-throughput')).toHaveTextContent('720/s');
    expect(within(noLock).getByTestId('compare-oversold')).toHaveTextContent('3');
    expect(within(noLock).getByTestId('compare-oversold')).toHaveClass('alarm-text');

    const lua = screen.getByTestId('compare-row-lua-decrement');
    expect(within(lua).getByTestId('compare-ratio')).toHaveTextContent('95 %');
    expect(within(lua).getByTestId('compare-oversold')).toHaveTextContent('0');
    expect(within(lua).getByTestId('compare-oversold')).not.toHaveClass('alarm-text');
    expect(within(lua).getByTestId('compare-sold-twice')).toHaveTextContent('0');

    const uuidLua = screen.getByTestId('compare-row-uuid-lua');
    expect(within(uuidLua).getByTestId('compare-sold-twice')).toHaveTextContent('21');
    expect(within(uuidLua).getByTestId('compare-sold-twice')).toHaveClass('alarm-text');
    expect(within(uuidLua).getByTestId('compare-oversold')).toHaveTextContent('0');
    expect(within(lua).getByTestId('compare-p50')).toHaveTextContent('1.5 ms');
    expect(within(lua).getByTestId('compare-p99')).toHaveTextContent('3.3 ms');
    expect(within(lua).getByTestId('compare-phase')).toHaveTextContent('sold out in 2 s, 25 units/s');
    // A result from before the contended phase was measured.
    expect(within(noLock).getByTestId('compare-phase')).toHaveTextContent('—');

    expect(within(screen.getByTestId('compare-row-watchdog')).getByTestId('compare-throughput')).toHaveTextContent('—');
    expect(screen.getByTestId('ceiling')).toHaveTextContent('1,000/s');
    expect(screen.getByTestId('compare-sold-twice-chart')).toBeInTheDocument();
    expect(screen.getByTestId('compare-throughput-chart')).toBeInTheDocument();
  });

  it("compares with the batch's ceiling, never with the discarded warm-up run before it", async () => {
    const warmUp = run({ id: 'warm-1', params: { ...noopRun.params, warmUp: true }, result: result({ throughput: 400 }) });
    openCompare([luaRun, noLockRun, warmUp, noopRun]);
    const lua = await screen.findByTestId('compare-row-lua-decrement');
    expect(within(lua).getByTestId('compare-ratio')).toHaveTextContent('95 %');
    expect(screen.getByTestId('ceiling')).toHaveTextContent('1,000/s');
  });

  it('flags a share above 100 % as a ceiling measured low instead of showing it', async () => {
    const fastLua = { ...luaRun, result: { ...luaRun.result!, throughput: 1340 } };
    openCompare([fastLua, noLockRun, noopRun]);
    const lua = await screen.findByTestId('compare-row-lua-decrement');
    expect(within(lua).getByTestId('compare-ratio')).toHaveTextContent('ceiling measured low — rerun');
    expect(within(lua).getByTestId('compare-ratio')).not.toHaveTextContent('%');
  });

  it("compares only runs with one set of settings, the latest run's by default, and says which", async () => {
    // A stock-5 preset run after the stock-50 batch: its figures are not to be read beside theirs.
    const presetRun = run({
      id: 'preset-1',
      params: { strategy: 'naive-setnx', initialStock: 5, lockTtlMs: 100, businessDelayMs: 250, scenario: 'expiry-pitfall', load: { connections: 20, durationSec: 5 } },
    });
    openCompare([presetRun, uuidLuaRun, luaRun, noLockRun, noopRun]);
    const filter = await screen.findByLabelText('Runs with the settings');
    expect(filter).toHaveDisplayValue('stock 5 · lock TTL 100 ms · business delay 250 ms · 20 connections · no faults');
    expect(screen.getByTestId('compare-row-naive-setnx')).toHaveAttribute('data-has-run', 'true');
    expect(screen.getByTestId('compare-row-no-lock')).toHaveAttribute('data-has-run', 'false');
    expect(within(screen.getByTestId('compare-row-naive-setnx')).getByTestId('compare-settings')).toHaveTextContent('stock 5');

    await userEvent.setup().selectOptions(filter, 'stock 50 · business delay 20 ms · 60 connections · no faults');
    expect(screen.getByTestId('compare-row-naive-setnx')).toHaveAttribute('data-has-run', 'false');
    expect(within(screen.getByTestId('compare-row-no-lock')).getByTestId('compare-throughput')).toHaveTextContent('720/s');
  });

  it('downloads the rows as shown, with their settings and run ids, as CSV', async () => {
    const downloads = captureDownloads();
    openCompare();
    await userEvent.setup().click(await screen.findByTestId('compare-csv'));
    expect(downloads.map((d) => d.filename)).toEqual(['compare.csv']);
    const lines = (await downloads[0].text()).split('\r\n');
    expect(lines[0]).toBe('strategy,runId,soldTwice,oversold,lost,throughput,ceilingRatio,p50Ms,p99Ms,initialStock,lockTtlMs,businessDelayMs,connections,faults');
    expect(lines).toContain('uuid-lua,ul-1,21,0,0,720,0.72,4,20,50,,20,60,');
    expect(lines).toContain('watchdog,,,,,,,,,,,,,');
  });

  it('says the ceiling is missing rather than inventing a ratio', async () => {
    openCompare([noLockRun]);
    const noLock = await screen.findByTestId('compare-row-no-lock');
    expect(within(noLock).getByTestId('compare-ratio')).toHaveTextContent('—');
    expect(screen.getByTestId('ceiling')).toHaveTextContent('not measured yet');
  });

  it('"Run all" queues a batch with the lab form\'s settings, or with a chosen scenario', async () => {
    const api = openCompare();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run all' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({ initialStock: 77, segments: 5 });
    expect(await screen.findByTestId('batch-progress')).toHaveTextContent('Batch b2: 0 of 1 runs finished.');

    await screen.findByRole('option', { name: 'Scenario: flash-sale' });
    // The ceiling is measured by the batch's own no-op run; its scenario file is the load CLI's.
    expect(screen.queryByRole('option', { name: 'Scenario: ceiling' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Settings'), 'flash-sale');
    await user.click(screen.getByRole('button', { name: 'Run all' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    expect(api.requests.filter((r) => r.method === 'POST')[1].body).toMatchObject({ initialStock: 20, scenario: 'flash-sale' });
  });
});
