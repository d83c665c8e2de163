import { ProductResetService } from '@oversell/stock';
import { freshProductId } from '@oversell/stock/testing';
import { OrderFigures, RunFiguresReader } from '@oversell/lab';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * A run's figures count only the requests that carry its token (x-run-token), which only its creator
 * gets. Before, any request with a run's id (listed by GET /api/runs) in x-run-id added to its figures.
 */
let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.close();
});

const LOAD = { connections: 1, totalRequests: 1 };
const ORDER = { quantity: 1, strategy: 'lua-decrement' } as const;

/** Queues a run (no worker runs it here) and answers its id and token. */
async function createRun(strategy: string): Promise<{ id: string; runToken: string; productId: number }> {
  const created = await service.post('/api/runs', { strategy, initialStock: strategy === 'noop' ? 0 : 10, load: LOAD });
  expect(created.status).toBe(201);
  return created.body;
}

/** What the instance has counted for a run, once its buffer reached Redis. */
async function counted(runId: string): Promise<{ attempts: number; sold: number }> {
  expect(await service.app.get(OrderFigures).flush()).toBe(true);
  const { counts } = await service.app.get(RunFiguresReader).counts(runId);
  return { attempts: counts.attempts, sold: counts.sold };
}

describe('a run token', () => {
  it('is given to the creator only, unguessable, and differs per run', async () => {
    const [a, b] = [await createRun('noop'), await createRun('noop')];
    expect(a.runToken).toMatch(/^[\w-]{32}$/);
    expect(a.runToken).not.toBe(b.runToken);
    expect(JSON.stringify((await service.get(`/api/runs/${a.id}`)).body)).not.toContain(a.runToken);
    expect(JSON.stringify((await service.get('/api/runs?limit=5')).body)).not.toContain(a.runToken);
  });

  it('comes with every run of a batch', async () => {
    const batch = await service.post('/api/runs/batch', { initialStock: 1, strategies: ['lua-decrement'], load: LOAD });
    expect(batch.status).toBe(201);
    const token = expect.stringMatching(/^[\w-]{32}$/);
    // The discarded warm-up, the ceiling, the strategy.
    expect(batch.body.runs.map((run: { params: { strategy: string; warmUp?: boolean }; runToken: string }) => [run.params.strategy, run.params.warmUp ?? false, run.runToken])).toEqual([
      ['noop', true, token],
      ['noop', false, token],
      ['lua-decrement', false, token],
    ]);
  });
});

describe('no-ops of the ceiling run', () => {
  it('count only with the run token; the bare run id, a made-up or another run’s token count nothing', async () => {
    const [run, other] = [await createRun('noop'), await createRun('noop')];
    const noop = (headers: Record<string, string>) => service.post('/api/noop', { productId: 1, ...ORDER }, headers);
    const strangers: Record<string, string>[] = [{}, { 'x-run-id': run.id }, { 'x-run-token': run.id }, { 'x-run-token': 'A'.repeat(32) }, { 'x-run-token': other.runToken }];
    for (const headers of strangers) {
      expect((await noop(headers)).status).toBe(200);
    }
    expect(await counted(run.id)).toEqual({ attempts: 0, sold: 0 });

    for (let i = 0; i < 3; i++) expect((await noop({ 'x-run-token': run.runToken })).status).toBe(200);
    expect(await counted(run.id)).toEqual({ attempts: 3, sold: 3 });
    expect(await counted(other.id)).toEqual({ attempts: 1, sold: 1 });
  });
});

describe('orders of a run', () => {
  it('are all served, but count in the run only with its token', async () => {
    const [run, other] = [await createRun('lua-decrement'), await createRun('lua-decrement')];
    const productId = freshProductId();
    // As the run worker does when the run starts: the product is reset under the run's id.
    await service.app.get(ProductResetService).reset(productId, { stock: 10, strategy: 'lua-decrement' }, run.id);
    const order = (headers: Record<string, string>) => service.post('/api/orders', { productId, ...ORDER }, headers);

    const strangers: Record<string, string>[] = [{}, { 'x-run-id': run.id }, { 'x-run-token': other.runToken }];
    for (const headers of strangers) expect((await order(headers)).status).toBe(201);
    expect(await counted(run.id)).toEqual({ attempts: 0, sold: 0 });
    expect(await counted(other.id)).toEqual({ attempts: 0, sold: 0 });

    expect((await order({ 'x-run-token': run.runToken })).status).toBe(201);
    expect(await counted(run.id)).toEqual({ attempts: 1, sold: 1 });
    // Every order took its unit: the stock and MySQL still see the untokened ones.
    expect((await service.get(`/api/products/${productId}/inventory`)).body).toMatchObject({ remaining: 6, sold: 4 });
  });

  it('still show in the instance’s metrics without a token', async () => {
    const productId = freshProductId();
    await service.post(`/api/products/${productId}/reset`, { stock: 5, strategy: 'db-conditional' });
    expect((await service.post('/api/orders', { productId, quantity: 1, strategy: 'db-conditional' })).status).toBe(201);
    expect((await service.get('/metrics')).body).toMatch(/oversell_orders_total\{strategy="db-conditional",outcome="sold"\} [1-9]/);
  });
});
