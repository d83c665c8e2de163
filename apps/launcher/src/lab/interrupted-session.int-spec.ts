import Redis from 'ioredis';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePortRange, testLabEnv } from '../testing/test-lab';
import { LAUNCHER_DIST } from './paths';

/**
 * The lab session `npm run bench`, `pitfalls` and `soak` open, in a process of its own (the built
 * launcher) that logs to stderr and says on stdout when its lab is up. Ctrl-C there must stop the lab
 * as the command's end would. In a process group of its own it is out of reach of whatever stops this
 * test run, so it interrupts itself (a clean stop) when this test's end of its stdin closes.
 */
const SESSION = `
process.stdin.on('end', () => process.kill(process.pid, 'SIGINT')).resume();
const { openLabSession } = require(${JSON.stringify(join(LAUNCHER_DIST, 'lab', 'lab-session.js'))});
const [basePort, env] = [Number(process.argv[1]), JSON.parse(process.argv[2])];
openLabSession({ instances: 2, outDir: '.', command: 'interrupted-session.int-spec', env, basePort, strategies: ['lua-decrement'] }, { keyPrefix: 'unused', basePort, storeProxy: false, log: (line) => console.error(line) })
  .then(() => console.log('lab up'), (e) => { console.error(e); process.exit(1); });
`;

it('Ctrl-C during a session (SIGINT to its whole process group, as a terminal sends it) stops its lab: exit 130, its instances gone and not restarted, none of its Redis keys left', async () => {
  const basePort = await freePortRange(2);
  const env = testLabEnv();
  // A process group of its own, with its instances in it, as a command started from a terminal.
  const session = spawn(process.execPath, ['-e', SESSION, String(basePort), JSON.stringify(env)], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  // 'close': the exit, and the end of its output, which the restart check reads.
  const closed = once(session, 'close');
  const logged: string[] = [];
  createInterface({ input: session.stderr! }).on('line', (line) => {
    logged.push(line);
    process.stderr.write(`[session] ${line}\n`);
  });
  const redis = new Redis({ host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379), lazyConnect: true });
  try {
    // (ensure-services.sh prints to the same stdout first.)
    for await (const line of createInterface({ input: session.stdout! })) if (line === 'lab up') break;
    // The instances' own keys (registry, heartbeats): what an interrupted soak left by the tens of thousands.
    expect((await redis.keys(`${env.REDIS_KEY_PREFIX}:*`)).length).toBeGreaterThan(0);

    process.kill(-session.pid!, 'SIGINT');
    const [code, signal] = (await closed) as [number | null, NodeJS.Signals | null];
    const answered = await Promise.all([0, 1].map((i) => fetch(`http://127.0.0.1:${basePort + i}/health`).then(() => true, () => false)));
    expect({
      code,
      signal,
      answered,
      keysLeft: await redis.keys(`${env.REDIS_KEY_PREFIX}:*`),
      restarted: logged.filter((line) => line.includes('restarting it')),
    }).toEqual({ code: 130, signal: null, answered: [false, false], keysLeft: [], restarted: [] });
  } finally {
    redis.disconnect();
    try {
      process.kill(-session.pid!, 'SIGKILL');
    } catch {
      // The group is gone: the session and its instances exited.
    }
  }
}, 180_000);
