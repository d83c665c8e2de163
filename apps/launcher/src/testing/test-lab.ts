import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startLab, type Lab, type LabOptions } from '../lab/lab';

export { freePort } from '../lab/edge';

/**
 * Ports for n instances in a row that are all free right now, below the kernel's ephemeral range (as
 * infra/scripts/local-server.sh picks them): a port in that range, freed by an instance the test kills,
 * can become the local end of any outgoing connection (to Redis, MySQL, …) before the launcher restarts
 * the instance on it, which then fails with EADDRINUSE.
 */
export async function freePortRange(n: number): Promise<number> {
  const low = 20_000;
  const high = ephemeralLow() - n;
  for (;;) {
    const base = low + Math.floor(Math.random() * (high - low));
    const checks = await Promise.all(Array.from({ length: n }, (_, i) => isFree(base + i)));
    if (checks.every(Boolean)) return base;
  }
}

function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
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
  return startLab({ instances, gatewayPort: 0, basePort: await freePortRange(instances), env: testLabEnv(), ensureServices: false, clearKeysOnStop: true, log: (line) => process.stderr.write(`${line}\n`), ...options });
}
