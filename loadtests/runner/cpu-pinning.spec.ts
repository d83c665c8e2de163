import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinnedCommand, pinnedFork } from './cpu-pinning';

/** The cores a process may run on, as the kernel says (Cpus_allowed_list). */
const allowedCpus = (pid: number) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];

describe('CPU pinning (bench --taskset)', () => {
  it('runs a command under taskset only when its side has cores', () => {
    expect(pinnedCommand('lab', 'nginx', ['-t'], {})).toEqual(['nginx', ['-t']]);
    expect(pinnedCommand('lab', 'nginx', ['-t'], { LAB_CPUS: '1' })).toEqual(['taskset', ['-c', '1', 'nginx', '-t']]);
    expect(pinnedCommand('lab', 'nginx', ['-t'], { LOAD_CPUS: '0' })).toEqual(['nginx', ['-t']]);
  });

  it('a forked child runs on the given core, keeps its IPC channel, and its pid is its own', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'oversell-pinning-')), 'child.js');
    writeFileSync(script, "process.send(process.pid); process.on('message', () => process.exit(0));");
    const child = fork(script, [], { ...pinnedFork('load', [], { LOAD_CPUS: '0' }), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [pid] = (await once(child, 'message')) as [number];
    expect(pid).toBe(child.pid);
    expect(allowedCpus(pid)).toBe('0');
    child.send('bye');
    await once(child, 'exit');
  });
});
