import { STRATEGY_NAMES } from '@oversell/contracts';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { validateEnv } from '../src/config/validate-env';

describe('configuration', () => {
  it('fills every default from the local services when nothing is set', () => {
    const env = validateEnv({});
    expect(env).toMatchObject({ PORT: 3000, MYSQL_HOST: '127.0.0.1', MYSQL_PORT: 3306, MYSQL_USER: 'oversell', MYSQL_PASSWORD: 'oversell-lab', MYSQL_DATABASE: 'oversell_lab', REDIS_HOST: '127.0.0.1', REDIS_PORT: 6379, CLOCK_OFFSET_MS: 0, STORE_PROXY: false });
  });

  it('queues a compare batch of every strategy (with its warm-up and ceiling runs) by default', () => {
    expect(validateEnv({}).RUN_QUEUE_LIMIT).toBeGreaterThanOrEqual(STRATEGY_NAMES.length + 2);
  });

  it('takes a clock offset either way, within an hour', () => {
    expect(validateEnv({ CLOCK_OFFSET_MS: '-5000' })).toMatchObject({ CLOCK_OFFSET_MS: -5000 });
    expect(validateEnv({ CLOCK_OFFSET_MS: '3600000' })).toMatchObject({ CLOCK_OFFSET_MS: 3_600_000 });
  });

  it('takes the lab’s public hosts as the gateway does: comma-separated, with spaces, IPv6 in brackets or not', () => {
    for (const LAB_PUBLIC_HOST of ['lab.example.org, 192.168.1.20', '[fd00::7]', 'fd00::7', 'lab.example.org,']) expect(validateEnv({ LAB_PUBLIC_HOST })).toMatchObject({ LAB_PUBLIC_HOST });
  });

  it('takes etcd client URLs, comma-separated', () => {
    expect(validateEnv({ ETCD_ENDPOINTS: 'http://127.0.0.1:2379,http://etcd.lab:2379' })).toMatchObject({ ETCD_ENDPOINTS: 'http://127.0.0.1:2379,http://etcd.lab:2379' });
  });

  it('takes a ZooKeeper connect string, host:port comma-separated', () => {
    expect(validateEnv({ ZOOKEEPER_CONNECT: '127.0.0.1:2181,zookeeper.lab:2181' })).toMatchObject({ ZOOKEEPER_CONNECT: '127.0.0.1:2181,zookeeper.lab:2181' });
  });

  it('takes Sentinels for the locks, host:port comma-separated, and the master\'s name (lab-master by default)', () => {
    expect(validateEnv({ REDIS_SENTINELS: '127.0.0.1:26379,sentinel-2:26379' })).toMatchObject({ REDIS_SENTINELS: '127.0.0.1:26379,sentinel-2:26379', REDIS_SENTINEL_MASTER: 'lab-master' });
  });

  it.each([
    ['MYSQL_PORT', 'three-three-o-six'],
    ['REDIS_PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['MYSQL_DATABASE', 'drop table;'],
    ['BODY_LIMIT_BYTES', '-1'],
    ['CLOCK_OFFSET_MS', '7200000'],
    ['CLOCK_OFFSET_MS', 'ahead'],
    ['STORE_PROXY', 'sometimes'],
    ['ETCD_ENDPOINTS', '127.0.0.1:2379'],
    ['ETCD_ENDPOINTS', 'http://127.0.0.1:2379,'],
    ['ZOOKEEPER_CONNECT', 'http://127.0.0.1:2181'],
    ['ZOOKEEPER_CONNECT', '127.0.0.1'],
    ['REDIS_CLUSTER_NODES', 'redis://127.0.0.1:7000'],
    ['REDIS_SENTINELS', 'redis://127.0.0.1:26379'],
    ['REDIS_SENTINELS', '127.0.0.1'],
    ['REDIS_SENTINEL_MASTER', 'lab master'],
    // A bearer token cannot carry a space: with one, no request could ever present it.
    ['ADMIN_TOKEN', 'correct horse battery staple'],
    ['ADMIN_TOKEN', ' '.repeat(16)],
    ['ADMIN_TOKEN', 'short'],
    ['LAB_PUBLIC_HOST', 'lab.example.org/evil'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => validateEnv({ [name]: value })).toThrow(new RegExp(`"${name}"`));
  });

  it('stops the service at start with the variable named, before touching any store', () => {
    const result = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', resolve(__dirname, '../src/main.ts')], {
      env: { ...process.env, TS_NODE_PROJECT: resolve(__dirname, '../tsconfig.json'), MYSQL_PORT: 'not-a-port', REDIS_PORT: '6379' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/invalid configuration: .*"MYSQL_PORT" must be a number/);
  });
});
