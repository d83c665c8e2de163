import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startLab, type Lab, type LabOptions } from '../lab';

/** A free TCP port, found by letting the OS pick one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Ports for n instances in a row that are all free right now. */
export async function freePortRange(n: number): Promise<number> {
  for (;;) {
    const base = await freePort();
    const checks = await Promise.all(Array.from({ length: n }, (_, i) => isFree(base + i)));
    if (checks.every(Boolean)) return base;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The environment of a lab under test: the test database and a Redis key prefix of its own. */
export function testLabEnv(): NodeJS.ProcessEnv {
  return {
    MYSQL_DATABASE: process.env.MYSQL_TEST_DATABASE ?? 'oversell_lab_test',
    REDIS_KEY_PREFIX: `oltest-lab-${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'warn',
  };
}

export async function startTestLab(instances: number, options: Partial<LabOptions> = {}): Promise<Lab> {
  return startLab({ instances, gatewayPort: 0, basePort: await freePortRange(instances), env: testLabEnv(), ensureServices: false, log: (line) => process.stderr.write(`${line}\n`), ...options });
}
