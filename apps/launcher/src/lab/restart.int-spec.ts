import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { alive } from '../testing/process-alive';
import { startTestLab } from '../testing/test-lab';

/** Polls the real condition: the instance's own port answers /health with 200. */
async function healthyOn(url: string): Promise<void> {
  for (;;) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(100);
  }
}

async function post(lab: Lab, path: string, body: unknown): Promise<{ status: number; instance: string | null; body: any }> {
  const response = await fetch(`${lab.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, instance: response.headers.get('x-instance'), body: await response.json() };
}

describe('a crashed instance', () => {
  let lab: Lab | undefined;
  afterEach(async () => {
    await lab?.stop();
    lab = undefined;
  });

  it('is restarted on its port after kill -9; orders through the gateway keep being served; stop leaves no process', async () => {
    lab = await startTestLab(2);
    const victim = lab.instances[1];
    const killedPid = victim.pid!;
    process.kill(killedPid, 'SIGKILL');
    // The kill was real: that process is gone.
    while (alive(killedPid)) await sleep(20);

    await healthyOn(victim.url);
    const restartedPid = victim.pid!;
    expect(restartedPid).not.toBe(killedPid);
    expect(victim.restarts).toBe(1);
    while (!victim.up) await sleep(20);
    // Up, and then put back in nginx's upstreams: the reload that follows is asynchronous.
    await lab.gatewayFollowed();

    const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
    expect((await post(lab, `/api/products/${productId}/reset`, { stock: 10, strategy: 'lua-decrement' })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(lab!, '/api/orders', { productId, quantity: 1, strategy: 'lua-decrement' })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    // The gateway sends to the restarted instance again, not only to the survivor.
    expect(new Set(answers.map((a) => a.instance))).toEqual(new Set(['instance-1', 'instance-2']));
    const inventory = await (await fetch(`${lab.gatewayUrl}/api/products/${productId}/inventory`)).json();
    expect(inventory).toMatchObject({ sold: 8, orders: 8, remaining: 2, oversold: 0, storesAgree: true });

    const pids = [lab.instances[0].pid!, restartedPid];
    await lab.stop();
    lab = undefined;
    expect(pids.filter(alive)).toEqual([]);
    // Stopping is not a crash: nothing was started again after it.
    expect(victim.restarts).toBe(1);
  });

  it('is given up on, and says so, once it dies more often in a minute than the bound allows', async () => {
    const lines: string[] = [];
    lab = await startTestLab(1, { maxRestartsPerMinute: 1, log: (line) => lines.push(line) });
    const [instance] = lab.instances;
    process.kill(instance.pid!, 'SIGKILL');
    await healthyOn(instance.url);
    while (!instance.up) await sleep(20);
    const secondPid = instance.pid!;
    process.kill(secondPid, 'SIGKILL');
    while (!instance.gaveUp) await sleep(20);
    expect(instance.restarts).toBe(1);
    expect(alive(secondPid)).toBe(false);
    expect(instance.pid).toBe(secondPid);
    expect(lines.join('\n')).toMatch(/instance-1\] exited unexpectedly \(SIGKILL\); it died 2 times within a minute: not restarting it again/);
  });
});
