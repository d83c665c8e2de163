import type { CreatedRunView, InventoryView, ProductRunSettings, RunView } from '@oversell/contracts';
import { freshProductId, until } from '@oversell/stock/testing';
import { useVictimAndPeer, victimIndexOf } from './victim-and-peer';

/**
 * A run's faults are targeted when it is posted and again when it starts: the instances may change while
 * it waits in the queue. Here the instance its fault names stops meanwhile. The run must fail at its
 * start with the reason recorded, before anything of its product is reset: no order taken, no stock moved.
 */
const lab = useVictimAndPeer();

const runOf = async (id: string) => (await lab.peer.request(`/api/runs/${id}`)).body as RunView;

it('a run whose fault target (an instance) stopped while the run waited in the queue fails at its start, naming it, with its product untouched', async () => {
  const instance = victimIndexOf(lab.victim, lab.peer);
  const productId = freshProductId();
  const reset = await lab.peer.request(`/api/products/${productId}/reset`, { method: 'POST', body: { stock: 10, strategy: 'lua-decrement' } });
  expect(reset.status).toBe(200);
  const before = reset.body as ProductRunSettings;

  // A no-op run holds the run worker, long enough for the victim to stop while the next run waits.
  const ahead = await lab.peer.request('/api/runs', { method: 'POST', body: { strategy: 'noop', initialStock: 0, load: { connections: 1, durationSec: 60 } } });
  expect(ahead.status).toBe(201);
  await until(async () => (await runOf(ahead.body.id)).status === 'running', 'the run ahead is running');

  const posted = await lab.peer.request('/api/runs', {
    method: 'POST',
    body: { strategy: 'lua-decrement', productId, initialStock: 10, load: { connections: 1, totalRequests: 5 }, faults: [{ kind: 'pause', at: 'stock-read', durationMs: 50, instance }] },
  });
  expect(posted.status).toBe(201);
  const queued = posted.body as CreatedRunView;
  expect(queued).toMatchObject({ status: 'queued', params: { faults: [{ kind: 'pause', instance, instanceId: lab.victim.instanceId }] } });

  await lab.victim.stop();
  let run = await runOf(queued.id);
  await until(async () => ['completed', 'failed'].includes((run = await runOf(queued.id)).status), 'the queued run ends', 90_000);

  expect(run).toMatchObject({ status: 'failed', result: null, failure: `faults[0].instance is ${instance}, ${lab.victim.instanceId} when the run was created, which is no longer live` });
  // Still the product as the test reset it, never reset for the run: all 10 units left, no order.
  const inventory = (await lab.peer.request(`/api/products/${productId}/inventory`)).body as InventoryView;
  expect(inventory).toMatchObject({ runId: before.runId, initialStock: 10, remaining: 10, sold: 0, orders: 0, storesAgree: true });
}, 180_000);
