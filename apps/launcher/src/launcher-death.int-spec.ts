import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { alive } from './testing/process-alive';
import { freePortRange, testLabEnv } from './testing/test-lab';

/** A launcher in a process of its own (the built lab), printing its instances' pids once they listen. */
const LAUNCHER = `
const { startLab } = require(${JSON.stringify(join(__dirname, '..', 'dist', 'lab.js'))});
const [basePort, env] = [Number(process.argv[1]), JSON.parse(process.argv[2])];
startLab({ instances: 2, gatewayPort: 0, basePort, env, ensureServices: false, strategies: ['lua-decrement'], log: () => {} })
  .then((lab) => console.log('pids ' + lab.instances.map((i) => i.pid).join(',')), (e) => { console.error(e); process.exit(1); });
`;

it('a launcher killed with SIGKILL takes its instances with it: no orphan keeps the port', async () => {
  const basePort = await freePortRange(2);
  const launcher = spawn(process.execPath, ['-e', LAUNCHER, String(basePort), JSON.stringify(testLabEnv())], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: launcher.stdout! }), 'line')) as [string];
  const pids = line.replace('pids ', '').split(',').map(Number);
  expect(pids.every(alive)).toBe(true);

  launcher.kill('SIGKILL');
  // Each instance notices its launcher's IPC channel close and shuts down; the jest timeout bounds the wait.
  while (pids.some(alive)) await sleep(50);
  const answered = await Promise.all([0, 1].map((i) => fetch(`http://127.0.0.1:${basePort + i}/health`).then(() => true, () => false)));
  expect(answered).toEqual([false, false]);
}, 180_000);
