import type { RunView } from '@oversell/contracts';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { startTestLab } from '../testing/test-lab';

/** The lab as `npm run demo` starts it: 2 instances as separate processes behind the gateway. */
let lab: Lab;

beforeAll(async () => {
  lab = await startTestLab(2);
});

afterAll(async () => {
  await lab?.stop();
});

async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${lab.gatewayUrl}${path}`, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function finished(id: string): Promise<RunView> {
  for (;;) {
    const { body } = await api<RunView>('GET', `/api/runs/${id}`);
    if (body.status === 'completed' || body.status === 'failed') return body;
    await sleep(200);
  }
}

const shortRun = (strategy: string, durationSec = 2) => ({ strategy, initialStock: 100, businessDelayMs: 1, load: { connections: 20, durationSec } });

it('spreads requests over every instance through the one gateway', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) seen.add((await fetch(`${lab.gatewayUrl}/health`)).headers.get('x-instance') ?? '');
  expect([...seen].sort()).toEqual(['instance-1', 'instance-2']);
});

it('starts each instance with 2 glibc malloc arenas, unless the environment names another number', () => {
  const expected = `MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '2'}`;
  for (const instance of lab.instances) expect(readFileSync(`/proc/${instance.pid}/environ`, 'utf8').split('\0')).toContain(expected);
});

it('executes two runs queued back to back one after the other, never overlapping', async () => {
  const first = await api<RunView>('POST', '/api/runs', shortRun('lua-decrement'));
  const second = await api<RunView>('POST', '/api/runs', shortRun('uuid-lua'));
  expect([first.status, second.status]).toEqual([201, 201]);
  const [a, b] = [await finished(first.body.id), await finished(second.body.id)];
  expect([a.status, b.status]).toEqual(['completed', 'completed']);
  expect(Date.parse(b.startedAt!)).toBeGreaterThanOrEqual(Date.parse(a.finishedAt!));
  // Figures are the servers' own, from both instances.
  expect(a.result!.instances.map((i) => i.instance).sort()).toEqual(['instance-1', 'instance-2']);
  expect(a.result!.instances.every((i) => i.attempts > 0)).toBe(true);
  expect(a.result!.reconciliation).toMatchObject({ initialStock: 100, sold: 100, oversold: 0, lost: 0, storesAgree: true });
  // 100 units to 20 connections for 2 s: the stock runs out within the run, and the phase holds what sold.
  const phase = a.result!.contendedPhase!;
  expect(phase).toMatchObject({ soldOut: true, units: 100 });
  expect(phase.unitsPerSec).toBeGreaterThan(0);
  expect(phase.durationMs).toBeLessThanOrEqual(a.result!.timeline.length * 1000);
  expect(phase.p99).toBeGreaterThanOrEqual(phase.p50);
  expect(b.result!.lockEvents.length).toBeGreaterThan(0);
  expect(b.result!.reconciliation.exclusionViolations).toBe(0);
});

it('streams a run live over server-sent events: status, progress, then the result (its id in upper case too)', async () => {
  const { body: run } = await api<RunView>('POST', '/api/runs', shortRun('watchdog', 3));
  // Upper case: the id passed validation, but the stream listened on a channel no event is sent to.
  const response = await fetch(`${lab.gatewayUrl}/api/runs/${run.id.toUpperCase()}/events`);
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const types: string[] = [];
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes('event: result')) break;
  }
  for (const match of text.matchAll(/^event: (\w+)$/gm)) types.push(match[1]);
  expect(types[0]).toBe('status');
  expect(types).toContain('progress');
  expect(types).toContain('lock');
  expect(types.at(-1)).toBe('result');
});

it('marks a run failed, with the reason, when an instance dies mid-way; the next run still works', async () => {
  const { body: run } = await api<RunView>('POST', '/api/runs', shortRun('lua-decrement', 8));
  while ((await api<RunView>('GET', `/api/runs/${run.id}`)).body.status !== 'running') await sleep(100);
  lab.instances[1].crash();
  const failed = await finished(run.id);
  expect(failed.status).toBe('failed');
  expect(failed.failure).toMatch(/instance-2 .*stopped during the run/);

  const { body: next } = await api<RunView>('POST', '/api/runs', shortRun('lua-decrement'));
  const done = await finished(next.id);
  expect(done.status).toBe('completed');
  // Works, and its books close; how much 2 s sell depends on the machine (66 of 100 on a loaded CI run).
  const books = done.result!.reconciliation;
  expect(books).toMatchObject({ oversold: 0, lost: 0, storesAgree: true });
  expect(books.sold).toBeGreaterThan(0);
  expect(books.sold + books.remaining).toBe(100);
});

it.each([
  ['negative stock', { ...shortRun('lua-decrement'), initialStock: -5 }, 'initialStock'],
  ['zero users', { ...shortRun('lua-decrement'), load: { connections: 0, durationSec: 2 } }, 'load.connections'],
  ['an unknown strategy', { ...shortRun('lua-decrement'), strategy: 'hope' }, 'strategy'],
  ['an absurd duration', { ...shortRun('lua-decrement'), load: { connections: 5, durationSec: 86_400 } }, 'load.durationSec'],
  ['no bound at all', { ...shortRun('lua-decrement'), load: { connections: 5 } }, 'load.durationSec'],
])('refuses a run with %s: 400 naming the field, nothing queued', async (_case, params, field) => {
  const before = (await api<RunView[]>('GET', '/api/runs?limit=200')).body.length;
  const { status, body } = await api('POST', '/api/runs', params);
  expect(status).toBe(400);
  expect(body.field).toBe(field);
  expect((await api<RunView[]>('GET', '/api/runs?limit=200')).body.length).toBe(before);
});
