import Redis from 'ioredis';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePortRange, testLabEnv } from './testing/test-lab';

/**
 * The lab session `npm run bench`, `pitfalls` and `soak` open, in a process of its own (the built
 * launcher), saying when its lab is up. Ctrl-C there must stop the lab as the command's end would.
 */
const SESSION = `
const { openLabSession } = require(${JSON.stringify(join(__dirname, '..', 'dist', 'lab-session.js'))});
const [basePort, env] = [Number(process.argv[1]), JSON.parse(process.argv[2])];
openLabSession({ instances: 2, outDir: '.', command: 'interrupted-session.int-spec', env, basePort, strategies: ['lua-decrement'] }, { keyPrefix: 'unused', basePort, storeProxy: false, log: () => {} })
  .then(() => console.log('lab up'), (e) => { console.error(e); process.exit(1); });
`;

it('Ctrl-C (SIGINT) during a session stops its lab: exit 130, its instances gone, none of its Redis keys left', async () => {
  const basePort = await freePortRange(2);
  const env = testLabEnv();
  const session = spawn(process.execPath, ['-e', SESSION, String(basePort), JSON.stringify(env)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(session, 'exit');
  // (ensure-services.sh prints to the same stdout first.)
  for await (const line of createInterface({ input: session.stdout! })) if (line === 'lab up') break;
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  try {
    // The instances' own keys (registry, heartbeats): what an interrupted soak left by the tens of thousands.
    expect((await redis.keys(`${env.REDIS_KEY_PREFIX}:*`)).length).toBeGreaterThan(0);

    session.kill('SIGINT');
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    const answered = await Promise.all([0, 1].map((i) => fetch(`http://127.0.0.1:${basePort + i}/health`).then(() => true, () => false)));
    expect({ code, signal, answered, keysLeft: await redis.keys(`${env.REDIS_KEY_PREFIX}:*`) }).toEqual({ code: 130, signal: null, answered: [false, false], keysLeft: [] });
  } finally {
    redis.disconnect();
    session.kill('SIGKILL');
  }
}, 180_000);
