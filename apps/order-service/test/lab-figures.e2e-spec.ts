import type { BenchInput, ChoosingALock, LockBenchInput, PitfallsInput } from '@oversell/contracts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceUnderTest } from './service-under-test';

/**
 * The Explain view's figures from this lab's own reports: what the benches leave in bench-results/ is
 * read at each request, so a bench run while the lab is up shows at the next load of the page.
 */
const dir = mkdtempSync(join(tmpdir(), 'oversell-lab-results-'));
const machine = { cpus: 2, memoryGb: 24, node: 'v20', loadAverage: [1, 1, 1] };
let service: ServiceUnderTest;

beforeAll(async () => {
  service = await startService({ LAB_RESULTS_DIR: dir });
});

afterAll(async () => {
  delete process.env.LAB_RESULTS_DIR;
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const write = (name: string, report: unknown) => writeFileSync(join(dir, name), JSON.stringify(report));

it("answers 204 No Content while the lab has measured nothing, then this lab's latest figures once its benches wrote reports", async () => {
  const none = await service.get('/api/lab-figures/choosing-a-lock');
  expect(none.status).toBe(204);
  expect(none.body).toBe('');

  write('latest.json', {
    command: 'npm run bench -- --strategies watchdog',
    startedAt: '2026-12-02T05:00:00.000Z',
    machine,
    rows: [
      { strategy: 'watchdog', status: 'completed', orderWrite: 'queued', throughput: 999, p99: 9, oversold: 0 },
      { strategy: 'watchdog', status: 'completed', orderWrite: 'sync', throughput: 1234.5, p99: 41.5, oversold: 0 },
    ],
  } satisfies BenchInput);
  write('locks-latest.json', {
    command: 'npm run bench:locks',
    startedAt: '2026-12-02T05:10:00.000Z',
    machine,
    rows: [{ lock: 'watchdog', sectionsPerSec: 2986, waitMs: { p99: 77.4 }, timeouts: 0, errors: 0 }],
  } satisfies LockBenchInput);
  const pitfalls = (startedAt: string): PitfallsInput => ({ command: 'npm run pitfalls', startedAt, machine, presets: [], runs: [] });
  write('pitfalls-2026-12-01T00-00-00-000Z.json', pitfalls('2026-12-01T00:00:00.000Z'));
  write('pitfalls-2026-12-02T05-20-00-000Z.json', pitfalls('2026-12-02T05:20:00.000Z'));
  write('pitfalls-latest.md', '# not a report the figures read');

  const measured = await service.get('/api/lab-figures/choosing-a-lock');
  expect(measured.status).toBe(200);
  const data = measured.body as ChoosingALock;
  // The sync row (the comparison's), not the queued one; the lock bench's row; the newest pitfalls report.
  expect(data.rows.find((row) => row.strategy === 'watchdog')).toMatchObject({ ordersPerSec: 1234.5, p99Ms: 41.5, oversold: 0, lockSectionsPerSec: 2986, lockWaitP99Ms: 77.4 });
  expect(data.sources.pitfalls).toMatchObject({ file: 'bench-results/pitfalls-2026-12-02T05-20-00-000Z.json', startedAt: '2026-12-02T05:20:00.000Z' });
  expect(data.sources.bench).toMatchObject({ command: 'npm run bench -- --strategies watchdog' });
  expect(data.generatedAt).toBe('2026-12-02T05:20:00.000Z');
});
