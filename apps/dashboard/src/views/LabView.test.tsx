import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { strategyEntry } from '@oversell/contracts';
import { createI18n } from '../i18n/i18n';
import { fakeApi, type Route } from '../test/fake-api';
import { FakeEventSource } from '../test/fake-event-source';
import { CEILING_SCENARIO, lockEvent, outcomeCounts, point, result, run, SCENARIOS, STRATEGIES } from '../test/fixtures';
import { renderApp } from '../test/render';

const counts = outcomeCounts({ attempts: 200, sold: 53, sold_out: 147 });
const queued = run({ status: 'queued', startedAt: null, finishedAt: null, result: null });

function openLab(routes: Route[] = []) {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  const api = fakeApi([{ path: 'strategies', body: STRATEGIES }, { path: 'scenarios', body: SCENARIOS }, ...routes]);
  renderApp('#/lab');
  return api;
}

/** Fills the form like a presenter would and presses "Start run". */
async function startRun(stock: string) {
  const user = userEvent.setup();
  await screen.findByRole('option', { name: 'No lock (baseline)' });
  const field = screen.getByLabelText('Initial stock');
  await user.clear(field);
  if (stock) await user.type(field, stock);
  await user.click(screen.getByRole('button', { name: 'Start run' }));
}

describe('LabView', () => {
  it('shows the selected strategy beside the form, with its guarantee, pitfall and how to reproduce it', async () => {
    openLab();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Strategy'), 'naive-setnx');
    const brief = screen.getByTestId('strategy-brief');
    const texts = strategyEntry('naive-setnx').texts.en;
    expect(brief).toHaveTextContent(texts.pitfall);
    expect(brief).toHaveTextContent(texts.reproduce);
    expect(screen.queryByLabelText('Segments')).not.toBeInTheDocument();
  });

  it('fills the form from a scenario', async () => {
    openLab();
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'flash-sale' });
    await user.selectOptions(screen.getByLabelText('Scenario'), 'flash-sale');
    expect(screen.getByLabelText('Strategy')).toHaveValue('naive-setnx');
    expect(screen.getByLabelText('Initial stock')).toHaveValue(20);
    expect(screen.getByLabelText('Business delay (ms)')).toHaveValue(150);
    expect(screen.getByLabelText('a number of requests')).toBeChecked();
    expect(screen.getByLabelText('Total requests')).toHaveValue(5000);
  });

  it('does not offer the ceiling scenario, which is for the load CLI\'s no-op target, as a run', async () => {
    fakeApi([{ path: 'strategies', body: STRATEGIES }, { path: 'scenarios', body: [...SCENARIOS, CEILING_SCENARIO] }]);
    renderApp('#/lab');
    await screen.findByRole('option', { name: 'flash-sale' });
    expect(screen.queryByRole('option', { name: 'ceiling' })).not.toBeInTheDocument();
  });

  it("shows a 400's message next to the field it is about", async () => {
    const api = openLab([
      {
        method: 'POST',
        path: 'runs',
        status: 400,
        body: { statusCode: 400, error: 'validation_failed', message: 'initialStock must be at most 1000000', field: 'initialStock' },
      },
    ]);
    // Within the form's own bounds: only the service can refuse it.
    await startRun('500000');
    const field = screen.getByTestId('field-initialStock-container');
    expect(await within(field).findByText('initialStock must be at most 1000000')).toBeInTheDocument();
    expect(screen.getByLabelText('Initial stock')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Initial stock')).toHaveAccessibleDescription('initialStock must be at most 1000000');
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({ strategy: 'no-lock', initialStock: 500000 });
  });

  it('says one thing about an empty field, and sends nothing', async () => {
    const api = openLab();
    await startRun('');
    const field = screen.getByTestId('field-initialStock-container');
    expect(within(field).getByTestId('field-initialStock-error')).toHaveTextContent(/^Enter a number\.$/);
    expect(screen.getAllByText('Enter a number.')).toHaveLength(1);
    expect(screen.getByLabelText('Initial stock')).toHaveAccessibleDescription('Enter a number.');
    await userEvent.setup().type(screen.getByLabelText('Initial stock'), '2000000');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Start run' }));
    expect(within(field).getByTestId('field-initialStock-error')).toHaveTextContent(/^Enter a whole number from 0 to 1000000\.$/);
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('brings the new run into view and keeps its state in a summary while it goes', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    openLab([
      { method: 'POST', path: 'runs', status: 201, body: queued },
      { path: 'runs/run-1', body: queued },
      { path: 'runs?limit=50', body: [] },
    ]);
    await startRun('50');
    await screen.findByTestId('run-panel');
    await waitFor(() => expect(scrolled).toHaveBeenCalled());
    expect(scrolled.mock.contexts[0]).toContainElement(screen.getByTestId('run-panel'));
    act(() => {
      const source = FakeEventSource.latest();
      source.emit({ type: 'status', runId: 'run-1', status: 'running' });
      source.emit({ type: 'progress', runId: 'run-1', point: point(2, { soldTotal: 40, remaining: 13 }), counts, oversold: 0, soldTwice: 3 });
    });
    const summary = screen.getByTestId('run-summary');
    expect(within(summary).getByTestId('run-summary-status')).toHaveTextContent('running');
    expect(within(summary).getByTestId('run-summary-sold-twice')).toHaveTextContent('3 units sold twice so far');
    expect(within(summary).getByTestId('run-summary-stock')).toHaveTextContent('40 sold, 13 of 50 left');
    expect(within(summary).getByTestId('run-summary-elapsed')).toHaveTextContent('3 of 5 s');
    scrolled.mockRestore();
  });

  it('loads a stored run\'s own settings into the form and runs it again with them', async () => {
    const stored = run({
      id: 'old-1',
      params: {
        strategy: 'naive-setnx',
        initialStock: 7,
        lockTtlMs: 100,
        businessDelayMs: 250,
        orderWrite: 'queued',
        scenario: 'flash-sale',
        load: { connections: 20, totalRequests: 400 },
        faults: [{ kind: 'pause', at: 'lock-acquired', once: true, durationMs: 300 }],
      },
    });
    const api = openLab([
      { path: 'runs/old-1', body: stored },
      { method: 'POST', path: 'runs', status: 201, body: queued },
      { path: 'runs/run-1', body: queued },
      { path: 'runs?limit=50', body: [] },
    ]);
    window.location.hash = '#/lab/old-1';
    await waitFor(() => expect(screen.getByLabelText('Initial stock')).toHaveValue(7));
    expect(screen.getByLabelText('Strategy')).toHaveValue('naive-setnx');
    expect(screen.getByLabelText('Lock TTL (ms)')).toHaveValue(100);
    expect(screen.getByLabelText('Business delay (ms)')).toHaveValue(250);
    expect(screen.getByLabelText('Orders written')).toHaveValue('queued');
    expect(screen.getByLabelText('Connections')).toHaveValue(20);
    expect(screen.getByLabelText('Total requests')).toHaveValue(400);
    expect(screen.getByTestId('fault-0')).toBeInTheDocument();

    await userEvent.setup().click(await screen.findByRole('button', { name: 'Run again' }));
    await waitFor(() => expect(window.location.hash).toBe('#/lab/run-1'));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual(stored.params);
  });

  it('starts a run and follows it live: the headline turns red once units are sold twice', async () => {
    openLab([
      { method: 'POST', path: 'runs', status: 201, body: queued },
      { path: 'runs/run-1', body: queued },
      { path: 'runs?limit=50', body: [] },
    ]);
    await startRun('50');
    await waitFor(() => expect(window.location.hash).toBe('#/lab/run-1'));
    const panel = await screen.findByTestId('run-panel');
    expect(within(panel).getByTestId('run-status')).toHaveAttribute('data-status', 'queued');
    const source = FakeEventSource.latest();
    expect(source.url).toBe('api/runs/run-1/events');

    act(() => {
      source.emit({ type: 'status', runId: 'run-1', status: 'running' });
      source.emit({ type: 'progress', runId: 'run-1', point: point(0), counts, oversold: 0 });
    });
    expect(within(panel).getByTestId('run-status')).toHaveAttribute('data-status', 'running');
    expect(screen.getByTestId('stock-headline')).toHaveAttribute('data-outcome', 'held');

    act(() => {
      source.emit({ type: 'progress', runId: 'run-1', point: point(1), counts, oversold: 3, soldTwice: 3 });
      source.emit({
        type: 'lock',
        runId: 'run-1',
        events: [
          lockEvent({ requestId: 'a', acquiredAt: 0, releasedAt: 50 }),
          lockEvent({ requestId: 'b', instance: 'order-2', acquiredAt: 20, releasedAt: 60 }),
        ],
      });
    });
    const headline = screen.getByTestId('stock-headline');
    expect(headline).toHaveTextContent('3 units sold twice so far');
    expect(headline).toHaveAttribute('data-outcome', 'sold-twice');
    expect(screen.getByTestId('lock-overlap-count')).toHaveTextContent('2 overlapping');
    expect(screen.getByTestId('outcome-counts')).toHaveTextContent('sold out147');

    expect(screen.queryByTestId('contended-phase')).toBeNull();
    const contendedPhase = { soldOut: true, durationMs: 2000, attempts: 120, units: 50, unitsPerSec: 25, p50: 4.5, p99: 12 };
    act(() => source.emit({ type: 'result', runId: 'run-1', run: run({ result: result({ contendedPhase }) }) }));
    expect(within(panel).getByTestId('run-status')).toHaveAttribute('data-status', 'completed');
    expect(screen.getByTestId('contended-phase')).toHaveTextContent('sold out in 2 s, 25 units/s, p50 4.5 ms, p99 12 ms');
    expect(screen.getByTestId('reconciliation-oversold')).toHaveTextContent('3');
    expect(screen.getByTestId('reconciliation-stores-agree')).toHaveTextContent('NO');
    expect(source.closed).toBe(true);
  });

  it('falls back to polling the run when the event stream breaks', async () => {
    const api = openLab([{ path: 'runs/run-1', body: run({ status: 'running', result: null }) }]);
    window.location.hash = '#/lab/run-1';
    await screen.findByTestId('run-panel');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.latest();

    api.route({ path: 'runs/run-1', body: run({ result: result({ reconciliation: { ...result().reconciliation, oversold: 0 } }) }) });
    act(() => source.fail());
    expect(source.closed).toBe(true);
    await waitFor(() => expect(screen.getByTestId('run-status')).toHaveAttribute('data-status', 'completed'), { timeout: 3000 });
    expect(screen.getByTestId('stock-headline')).toHaveAttribute('data-outcome', 'held');
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it("shows a failed run's reason", async () => {
    openLab([{ path: 'runs/run-1', body: run({ status: 'failed', failure: 'redis is not reachable', result: null }) }]);
    window.location.hash = '#/lab/run-1';
    expect(await screen.findByTestId('run-status')).toHaveTextContent('failed: redis is not reachable');
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('never says a failed run held its stock or had no orders: it failed, its figures were not recorded, and the product\'s inventory now is shown as such', async () => {
    const inventory = {
      productId: 1,
      runId: 'run-1',
      strategy: 'no-lock',
      initialStock: 50,
      lockTtlMs: 2000,
      businessDelayMs: 20,
      remaining: 0,
      sold: 536,
      orders: 536,
      oversold: 486,
      storesAgree: false,
      lost: 0,
      lostUpdates: 486,
      moves: null,
      storeLost: false,
    };
    openLab([
      { path: 'runs/run-1', body: run({ status: 'failed', failure: 'an instance did not report', result: null }) },
      { path: 'products/1/inventory', body: inventory },
    ]);
    window.location.hash = '#/runs/run-1';
    const panel = await screen.findByTestId('run-panel');
    expect(panel).not.toHaveTextContent('every unit sold at most once');
    expect(panel).not.toHaveTextContent('No orders yet.');
    expect(screen.queryByTestId('stock-headline')).not.toBeInTheDocument();
    const failed = within(panel).getByTestId('run-failed');
    expect(failed).toHaveTextContent('This run failed: an instance did not report.');
    expect(failed).toHaveTextContent('Its figures were not recorded.');
    const now = await within(panel).findByTestId('product-inventory');
    expect(now).toHaveTextContent("Product 1's inventory now");
    expect(within(now).getByTestId('inventory-sold')).toHaveTextContent('536');
    expect(within(now).getByTestId('inventory-oversold')).toHaveTextContent('486');
    expect(within(now).getByTestId('inventory-stores-agree')).toHaveTextContent('no');
  });

  /** The lab open with a run to queue, and one fault added to its form: that fault's fieldset. */
  async function withOneFault() {
    const api = openLab([
      { method: 'POST', path: 'runs', status: 201, body: queued },
      { path: 'runs/run-1', body: queued },
      { path: 'runs?limit=50', body: [] },
    ]);
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'No lock (baseline)' });
    await user.click(screen.getByRole('button', { name: 'Add a fault' }));
    return { api, user, fault: screen.getByTestId('fault-0') };
  }

  it('checks the faults by the service\'s rules before sending, names the field, and sends them with the run once right', async () => {
    const { api, user, fault } = await withOneFault();
    // A pause reads a fault point, how often and a duration; no clock offset, no copies.
    expect(within(fault).getByLabelText('Fault point')).toBeInTheDocument();
    expect(within(fault).queryByLabelText('Clock offset (± ms)')).not.toBeInTheDocument();
    expect(within(fault).queryByLabelText('Copies of each order')).not.toBeInTheDocument();
    expect(within(fault).queryByLabelText('Store cut off')).not.toBeInTheDocument();
    await user.selectOptions(within(fault).getByLabelText('Fault point'), 'release-checked-before-del');
    await user.clear(within(fault).getByLabelText('Duration (ms)'));
    await user.click(screen.getByRole('button', { name: 'Start run' }));
    expect(await within(fault).findByText(/needs durationMs/)).toBeInTheDocument();
    expect(within(fault).getByLabelText('Duration (ms)')).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.type(within(fault).getByLabelText('Duration (ms)'), '300');
    await user.click(within(fault).getByLabelText('every Nth time'));
    await user.clear(within(fault).getByLabelText('Every Nth passage (all instances)'));
    await user.type(within(fault).getByLabelText('Every Nth passage (all instances)'), '4');
    await user.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(window.location.hash).toBe('#/lab/run-1'));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      faults: [{ kind: 'pause', at: 'release-checked-before-del', every: 4, durationMs: 300 }],
    });
  });

  it("says a fault rule's problem in the page's language, written at the rule's source, and follows the language switch", async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    const api = fakeApi([{ path: 'strategies', body: STRATEGIES }, { path: 'scenarios', body: SCENARIOS }]);
    const chinese = createI18n({ language: 'zh-CN' });
    renderApp('#/lab', (app) => <I18nextProvider i18n={chinese}>{app}</I18nextProvider>);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '添加故障' }));
    const fault = screen.getByTestId('fault-0');
    await user.clear(within(fault).getByLabelText('持续时间（ms）'));
    await user.click(screen.getByRole('button', { name: '开始运行' }));
    expect(await within(fault).findByText('pause 故障需要 durationMs，取 1 到 30000 之间的整数')).toBeInTheDocument();
    await act(() => chinese.changeLanguage('en'));
    expect(await within(fault).findByText('a pause fault needs durationMs, a whole number from 1 to 30000')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends a store-cut with the store picked (redis by default, or mysql)', async () => {
    const { api, user, fault } = await withOneFault();
    await user.selectOptions(within(fault).getByLabelText('Kind'), 'store-cut');
    expect(within(fault).getByLabelText('Store cut off')).toHaveValue('redis');
    await user.selectOptions(within(fault).getByLabelText('Store cut off'), 'mysql');
    await user.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(window.location.hash).toBe('#/lab/run-1'));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      faults: [{ kind: 'store-cut', at: 'lock-acquired', once: true, durationMs: 500, store: 'mysql' }],
    });
  });

  it('shows only the fields a fault kind reads, and the service\'s 400 about a fault next to its field', async () => {
    openLab([
      {
        method: 'POST',
        path: 'runs',
        status: 400,
        body: {
          statusCode: 400,
          error: 'validation_failed',
          message: 'faults[0].offsetMs must be a whole number of ms, not 0, within ±600000',
          field: 'faults[0].offsetMs',
          details: [{ field: 'faults[0].offsetMs', problems: ['offsetMs is refused by this lab'] }],
        },
      },
    ]);
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'No lock (baseline)' });
    await user.click(screen.getByRole('button', { name: 'Add a fault' }));
    const fault = screen.getByTestId('fault-0');
    await user.selectOptions(within(fault).getByLabelText('Kind'), 'clock-offset');
    expect(within(fault).queryByLabelText('Fault point')).not.toBeInTheDocument();
    expect(within(fault).queryByLabelText('Duration (ms)')).not.toBeInTheDocument();
    await user.type(within(fault).getByLabelText('Instance index'), '1');
    await user.click(screen.getByRole('button', { name: 'Start run' }));
    expect(await within(fault).findByText('offsetMs is refused by this lab')).toBeInTheDocument();
    expect(screen.queryByTestId('run-form-error')).not.toBeInTheDocument();

    await user.selectOptions(within(fault).getByLabelText('Kind'), 'double-click');
    expect(within(fault).getByLabelText('Copies of each order')).toHaveValue(2);
    expect(within(fault).getByLabelText('Copies carry one idempotency key')).toBeChecked();
    expect(within(fault).queryByLabelText('Instance index')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove fault 1' }));
    expect(screen.queryByTestId('fault-0')).not.toBeInTheDocument();
  });
});
