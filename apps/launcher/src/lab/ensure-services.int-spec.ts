import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ENSURE_SERVICES_SCRIPT } from './paths';
import { freePort } from '../testing/test-lab';

/**
 * infra/scripts/ensure-services.sh against a MariaDB as a fresh Debian install leaves it (root by unix
 * socket only), started for this test in a data directory of its own: the script must give the lab its
 * own user, with rights on the oversell_% databases only, and leave root unreachable over TCP.
 */
const LAB = { user: 'oversell', password: 'oversell-lab' };

let dataDir: string;
let port: number;
let server: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'oversell-fresh-mariadb-'));
  port = await freePort();
  // As root (CI), mariadbd runs as root only when told so; as anyone else, as that user.
  const user = process.getuid?.() === 0 ? 'root' : (process.env.USER ?? 'nobody');
  const install = spawnSync('mariadb-install-db', ['--no-defaults', `--datadir=${dataDir}`, `--user=${user}`, '--auth-root-authentication-method=socket', '--skip-test-db'], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
  server = spawn('/usr/sbin/mariadbd', [
    '--no-defaults',
    `--datadir=${dataDir}`,
    `--socket=${join(dataDir, 'mysqld.sock')}`,
    `--pid-file=${join(dataDir, 'mysqld.pid')}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--user=${user}`,
    '--innodb-buffer-pool-size=16M',
    '--skip-log-bin',
  ]);
  await new Promise<void>((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: server!.stderr! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('ready for connections')) resolve();
    });
    server!.once('exit', (code) => reject(new Error(`mariadbd exited (${code}):\n${lines.join('\n')}`)));
  });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** This environment without MYSQL_USER/MYSQL_PASSWORD: the script's defaults are under test. */
function labDefaults(): NodeJS.ProcessEnv {
  const { MYSQL_USER: _user, MYSQL_PASSWORD: _password, ...env } = process.env;
  return env;
}

function ensureServices(): { status: number | null; output: string } {
  const result = spawnSync('bash', [ENSURE_SERVICES_SCRIPT], {
    env: { ...labDefaults(), MYSQL_HOST: '127.0.0.1', MYSQL_PORT: String(port), MYSQL_SOCKET: join(dataDir, 'mysqld.sock') },
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

/** One statement over TCP (never the socket) with the mariadb client: its exit status and error. */
function sql(user: string, password: string, statement: string): { ok: boolean; error: string } {
  const result = spawnSync('mariadb', ['--protocol=TCP', '-h', '127.0.0.1', '-P', String(port), '-u', user, '-e', statement], { env: { ...process.env, MYSQL_PWD: password }, encoding: 'utf8' });
  return { ok: result.status === 0, error: result.stderr.trim() };
}

it('creates the lab user, which reaches only the lab databases, over TCP', () => {
  expect(ensureServices()).toEqual({ status: 0, output: expect.stringContaining('creating MySQL user oversell') });
  expect(sql(LAB.user, LAB.password, 'CREATE DATABASE oversell_lab_probe; CREATE TABLE oversell_lab_probe.t (id INT); DROP DATABASE oversell_lab_probe')).toEqual({ ok: true, error: '' });
  // What the db-pessimistic test reads: other sessions' lock waits.
  expect(sql(LAB.user, LAB.password, 'SELECT COUNT(*) FROM information_schema.innodb_trx')).toEqual({ ok: true, error: '' });
  expect(sql(LAB.user, LAB.password, 'CREATE DATABASE not_the_lab').error).toMatch(/Access denied for user 'oversell'@'(localhost|127\.0\.0\.1)' to database 'not_the_lab'/);
  expect(sql(LAB.user, LAB.password, 'SELECT * FROM mysql.user').error).toMatch(/command denied/);
  expect(sql(LAB.user, 'a wrong password', 'SELECT 1').error).toMatch(/Access denied/);
});

it('leaves root unreachable over TCP without a password', () => {
  expect(sql('root', '', 'SELECT 1').error).toMatch(/Access denied for user 'root'/);
});

it('is idempotent: a second pass finds the user and changes nothing', () => {
  expect(ensureServices()).toEqual({ status: 0, output: expect.stringContaining('MySQL user oversell logs in') });
});
