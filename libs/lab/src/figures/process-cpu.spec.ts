import { createHash } from 'node:crypto';
import { processCpuMs } from './process-cpu';

describe('processCpuMs', () => {
  it('reads this process\'s CPU off /proc, and it grows with the work done', async () => {
    const before = await processCpuMs(process.pid);
    expect(before).not.toBeNull();
    // About 100 ms of hashing, measured against the process's own view of its CPU.
    const own = process.cpuUsage();
    while ((process.cpuUsage(own).user + process.cpuUsage(own).system) / 1000 < 100) createHash('sha256').update('x').digest();
    const after = await processCpuMs(process.pid);
    // /proc counts in 10 ms ticks: the growth is the work's, within two ticks.
    expect(after! - before!).toBeGreaterThanOrEqual(80);
  });

  it('answers null for a process that is not there', async () => {
    expect(await processCpuMs(2 ** 22 + 12345)).toBeNull();
  });
});
