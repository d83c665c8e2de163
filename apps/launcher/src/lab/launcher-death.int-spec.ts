import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { alive } from '../testing/process-alive';
import { freePortRange, testLabEnv } from '../testing/test-lab';
import { LAUNCHER_DIST } from './paths';

/** A launcher in a process of its own (the built lab), printing its instances' pids and nginx's once they listen. */
const LAUNCHER = `
const { startLab } = require(${JSON.stringify(join(LAUNCHER_DIST, 'lab', 'lab.js'))});
const [basePort, env] = [Number(process.argv[1]), JSON.parse(process.argv[2])];
startLab({ instances: 2, gatewayPort: 0, basePort, env, ensureServices: false, strategies: ['lua-decrement'], log: () => {} })
  .then((lab) => console.log('pids ' + [...lab.instances.map((i) => i.pid), lab.edge.pid].join(',') + ' gateway ' + lab.gatewayUrl), (e) => { console.error(e); process.exit(1); });
`;

it('a launcher killed with SIGKILL takes its instances and its nginx with it: no orphan keeps a port', async () => {
  const basePort = await freePortRange(2);
  const launcher = spawn(process.execPath, ['-e', LAUNCHER, String(basePort), JSON.stringify(testLabEnv())], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: launcher.stdout! }), 'line')) as [string];
  const [, pidList, , gatewayUrl] = line.split(' ');
  const pids = pidList.split(',').map(Number);
  expect(pids.every(alive)).toBe(true);

  launcher.kill('SIGKILL');
  // Each instance notices its launcher's IPC channel close and shuts down, nginx's watcher sees the launcher
  // gone and ends it; the jest timeout bounds the wait.
  while (pids.some(alive)) await sleep(50);
  const urls = [0, 1].map((i) => `http://127.0.0.1:${basePort + i}/health`);
  const answered = await Promise.all([...urls, `${gatewayUrl}/health`].map((url) => fetch(url).then(() => true, () => false)));
  expect(answered).toEqual([false, false, false]);
}, 180_000);
