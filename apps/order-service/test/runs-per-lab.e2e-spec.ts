import type { RunResult, RunView } from '@oversell/contracts';
import { getRepositoryToken } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { CONTROL_DATA_SOURCE, RunEntity } from '@oversell/lab';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * Two labs on one MySQL database (a demo and a bench, each with its own key prefix) share the runs
 * table. Neither runs the other's runs, so neither may list or serve them: a run another lab queued, or
 * left "running" when its session died, would sit in this lab's history for ever.
 */
const RUN = { strategy: 'lua-decrement', initialStock: 5, load: { connections: 1, totalRequests: 1 } };

let demo: ServiceUnderTest;
let bench: ServiceUnderTest;

beforeAll(async () => {
  // No run worker in either: the runs stay queued, as a dead session's would.
  demo = await startService();
  bench = await startService();
});

afterAll(async () => {
  await Promise.all([demo?.close(), bench?.close()]);
});

it("lists and serves only the lab's own runs", async () => {
  const ofDemo = await demo.post('/api/runs', RUN);
  const ofBench = await bench.post('/api/runs', RUN);
  expect([ofDemo.status, ofBench.status]).toEqual([201, 201]);

  const listed = async (lab: ServiceUnderTest) => ((await lab.get('/api/runs?limit=200')).body as RunView[]).map((run) => run.id);
  expect(await listed(demo)).toContain(ofDemo.body.id);
  expect(await listed(demo)).not.toContain(ofBench.body.id);
  expect(await listed(bench)).toContain(ofBench.body.id);
  expect(await listed(bench)).not.toContain(ofDemo.body.id);

  expect((await demo.get(`/api/runs/${ofDemo.body.id}`)).status).toBe(200);
  expect(await demo.get(`/api/runs/${ofBench.body.id}`)).toMatchObject({ status: 404, body: { error: 'run_not_found', field: 'id' } });
});

it('shows a run from before runs had a lab once it finished, never one still queued or running', async () => {
  const runs = demo.app.get<Repository<RunEntity>>(getRepositoryToken(RunEntity, CONTROL_DATA_SOURCE));
  const legacy = (status: RunEntity['status']) =>
    runs.create({ id: randomUUID(), lab: null, status, params: { strategy: 'lua-decrement', initialStock: 5, load: { connections: 1, totalRequests: 1 } }, productId: 1, batchId: null, startedAt: null, finishedAt: null, failure: null, result: null });
  const [finished, abandoned] = [legacy('completed'), legacy('running')];
  // Its figures from before the 'replayed' outcome: read back with a 0 for it.
  finished.result = { counts: { attempts: 3, sold: 3, sold_out: 0, lock_timeout: 0, conflict: 0, lock_lost: 0, fenced: 0, error: 0 }, lockEvents: [] } as unknown as RunResult;
  await runs.insert(finished);
  await runs.insert(abandoned);

  for (const lab of [demo, bench]) {
    expect(await lab.get(`/api/runs/${finished.id}`)).toMatchObject({ status: 200, body: { result: { counts: { sold: 3, replayed: 0 } } } });
    expect((await lab.get(`/api/runs/${abandoned.id}`)).status).toBe(404);
  }
  await runs.delete([finished.id, abandoned.id]);
});
