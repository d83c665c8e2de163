// Starts the lab exactly as `npm run demo` does (built launcher, 2 instances, free ports), runs the
// browser checks against its gateway, and stops the lab — whatever the outcome.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = resolve(here, '../../launcher/dist/commands/demo.js');
const CHECKS = resolve(here, 'dashboard.e2e.mjs');
const { clearLabKeys } = createRequire(import.meta.url)(resolve(here, '../../launcher/dist/lab/lab-keys.js'));
const START_TIMEOUT_MS = 120_000;

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** True when nothing listens on the port (MariaDB's 3306 lies in the instances' range). */
function canListen(port) {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/** The first of two consecutive free ports for the instances, drawn at random in 3200–4199. */
async function freeInstancePorts() {
  for (;;) {
    const base = 3200 + Math.floor(Math.random() * 500) * 2;
    if ((await canListen(base)) && (await canListen(base + 1))) return base;
  }
}

// A key prefix of its own: a demo or bench running beside the test keeps its run queue and instances.
const keyPrefix = `ol-e2e-${process.pid}`;
const gatewayPort = await freePort();
const basePort = await freeInstancePorts();
const demo = spawn(process.execPath, [DEMO, '--instances', '2', '--port', String(gatewayPort), '--base-port', String(basePort)], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, REDIS_KEY_PREFIX: keyPrefix },
});
const ready = new Promise((resolveReady, reject) => {
  const timer = setTimeout(() => reject(new Error(`the lab did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  createInterface({ input: demo.stdout }).on('line', (line) => {
    console.log(`[demo] ${line}`);
    if (line.startsWith('Oversell Lab is running')) {
      clearTimeout(timer);
      resolveReady();
    }
  });
  demo.once('exit', (code) => reject(new Error(`npm run demo exited (${code}) before the lab was up`)));
});

let code = 1;
try {
  await ready;
  const checks = spawn(process.execPath, [CHECKS], { stdio: 'inherit', env: { ...process.env, DASHBOARD_URL: `http://127.0.0.1:${gatewayPort}` } });
  [code] = await once(checks, 'exit');
} catch (error) {
  console.error(`e2e: ${error.message}`);
} finally {
  if (demo.exitCode === null) {
    demo.kill('SIGINT');
    await once(demo, 'exit');
  }
  // The demo keeps its runs on purpose; this one's are a test's, and each run left about 1300 keys.
  await clearLabKeys(process.env, keyPrefix).catch((error) => console.error(`e2e: could not clear the lab's Redis keys (${keyPrefix}:*): ${error.message}`));
}
process.exit(code ?? 1);
