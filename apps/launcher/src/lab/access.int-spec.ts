import type { CreatedRunView, RunParams, RunView } from '@oversell/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEdge } from './edge';
import { LabClient } from './lab-client';
import type { Lab } from './lab';
import { startTestLab } from '../testing/test-lab';

/**
 * Who may do what through the lab's entry point: admin actions need ADMIN_TOKEN once one is set (the
 * gateway passes Authorization through to the instances that check it), and a lab reachable from the
 * network does not start without one.
 */
const TOKEN = 'launcher-access-test-token-0123456';
const RUN: RunParams = { strategy: 'noop', initialStock: 0, load: { connections: 1, totalRequests: 1 } };

describe('beyond loopback without ADMIN_TOKEN', () => {
  const saved = process.env.ADMIN_TOKEN;
  beforeAll(() => delete process.env.ADMIN_TOKEN);
  afterAll(() => {
    if (saved !== undefined) process.env.ADMIN_TOKEN = saved;
  });

  it.each(['0.0.0.0', '::', '192.0.2.10'])('the gateway refuses to listen on %s, naming ADMIN_TOKEN', async (host) => {
    await expect(startEdge({ port: 0, host, upstreams: [], dashboardDir: '/nonexistent' })).rejects.toThrow(/beyond loopback.*set ADMIN_TOKEN/);
  });

  it('the lab refuses before it starts any instance', async () => {
    await expect(startTestLab(1, { gatewayHost: '0.0.0.0', log: () => undefined })).rejects.toThrow(/set ADMIN_TOKEN/);
  });
});

describe('a lab with ADMIN_TOKEN, through the gateway', () => {
  let lab: Lab;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${lab.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    lab = await startTestLab(1, { adminToken: TOKEN });
  });

  afterAll(async () => {
    await lab?.stop();
  });

  it('refuses a run without the token (401) or with another (403), and queues it with the token', async () => {
    const without = await post('/api/runs', RUN);
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ statusCode: 401, error: 'unauthorized' });
    expect((await post('/api/runs', RUN, { authorization: 'Bearer wrong-token-wrong-token-0123' })).status).toBe(403);
    expect((await post('/api/runs', RUN, { authorization: `Bearer ${TOKEN}` })).status).toBe(201);
  });

  it('the bench client queues runs with the token it is given, and is refused without it', async () => {
    await expect(new LabClient(lab.gatewayUrl, TOKEN).queueRun(RUN)).resolves.toMatchObject({ status: 'queued' });
    await expect(new LabClient(lab.gatewayUrl).queueRun(RUN)).rejects.toThrow(/401/);
  });

  it("counts the run's own load, which the worker sends with the run's token, and only that", async () => {
    const created = (await (await post('/api/runs', { ...RUN, load: { connections: 2, totalRequests: 20 } }, { authorization: `Bearer ${TOKEN}` })).json()) as CreatedRunView;
    // A stranger who read the run's id (GET /api/runs) and knows the old header adds nothing.
    const stranger = () => post('/api/noop', { productId: 1, quantity: 1, strategy: 'lua-decrement' }, { 'x-run-id': created.id });
    let run: RunView;
    do {
      expect((await stranger()).status).toBe(200);
      run = (await (await fetch(`${lab.gatewayUrl}/api/runs/${created.id}`)).json()) as RunView;
      if (run.status !== 'completed' && run.status !== 'failed') await sleep(50);
    } while (run.status !== 'completed' && run.status !== 'failed');
    expect(run.status).toBe('completed');
    expect(run.result!.counts.attempts).toBe(20);
  });
});
