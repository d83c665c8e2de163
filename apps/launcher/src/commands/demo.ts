/**
 * `npm run demo`: checks Redis and MariaDB, starts the lock services the strategies need (etcd, …), K
 * order-service instances and the gateway, prints where to look, and stops everything it started on Ctrl-C.
 *   --instances 3   --port 8080   --base-port 3001   --host 127.0.0.1   --public-host lab.example.org
 *   --sentinels: the Redis locks on a Sentinel group of the lab's own, for the failover fault and the
 *   master-failover preset (a store cut then cuts the stock's Redis, no longer the locks')
 * Beyond loopback (--host 0.0.0.0, or LAB_HOST) it needs ADMIN_TOKEN, which admin actions then carry;
 * the gateway answers only Host names of loopback, its bind address and --public-host (LAB_PUBLIC_HOST,
 * comma-separated).
 */
import { publicHostNames } from '@oversell/contracts';
import { cliCommand, exitOnCliError, parseCommand, plainOption, say, UsageError, valueOption, wholeNumber } from '@oversell/cli';
import { instancesOption } from './cli-options';
import { startLab, type LabOptions } from '../lab/lab';

const MAX_PORT = 65535;

/** The demo's options, each beside the environment variable that stands for it; a fresh command per parse. */
export function demoCommand() {
  return cliCommand('demo', {
    en: 'Starts the lab (order-service instances behind one gateway that serves the dashboard) and stops everything it started on Ctrl-C.',
    zh: '启动实验室（多个订单服务实例，前面一个兼供看板的网关）；按 Ctrl-C 停止它启动的一切。',
  })
    .addOption(instancesOption(3).env('LAB_INSTANCES'))
    .addOption(valueOption('--port <port>', { en: 'port of the gateway', zh: '网关的端口' }, wholeNumber(1, MAX_PORT)).default(8080).env('LAB_PORT'))
    // Its upper bound depends on --instances, checked once both are read.
    .addOption(
      valueOption('--base-port <port>', { en: 'port of the first instance, the others after it', zh: '第一个实例的端口，其余依次递增' }, {
        ...wholeNumber(1, MAX_PORT - 1),
        takes: { en: `whole number from 1 to ${MAX_PORT} less the instances`, zh: `1 到（${MAX_PORT} 减实例数）之间的整数` },
      }).default(3001),
    )
    .addOption(plainOption('--host <address>', { en: 'address the gateway binds; beyond loopback it needs ADMIN_TOKEN', zh: '网关绑定的地址；非回环地址需设置 ADMIN_TOKEN' }).default('127.0.0.1').env('LAB_HOST'))
    .addOption(plainOption('--public-host <names>', { en: 'comma list of Host names the gateway answers besides loopback and its bind address', zh: '除回环与绑定地址外网关还接受的 Host 名，逗号分隔' }).default('').env('LAB_PUBLIC_HOST'))
    .addOption(plainOption('--sentinels', { en: "the Redis locks on a Sentinel group of the lab's own, for the failover fault and the master-failover preset", zh: '让 Redis 锁运行在实验室自带的 Sentinel 组上，供故障转移故障和 master-failover 预设使用' }));
}

export type DemoOptions = Pick<LabOptions, 'instances' | 'gatewayPort' | 'basePort' | 'gatewayHost' | 'publicHosts' | 'services'>;

export function parseDemoArgs(args: string[]): DemoOptions {
  const values = parseCommand(demoCommand(), args);
  const instances = values.instances as number;
  const basePort = values.basePort as number;
  if (basePort > MAX_PORT - instances) {
    throw new UsageError(
      `option '--base-port <port>' argument '${basePort}' is invalid. ${say({ en: `With ${instances} instances it must be a whole number from 1 to ${MAX_PORT - instances}.`, zh: `有 ${instances} 个实例时应为：1 到 ${MAX_PORT - instances} 之间的整数。` })}`,
    );
  }
  return {
    instances,
    gatewayPort: values.port as number,
    basePort,
    gatewayHost: values.host as string,
    publicHosts: publicHostNames(values.publicHost as string),
    services: values.sentinels === true ? ['redis-sentinel'] : undefined,
  };
}

async function main(): Promise<void> {
  const options = parseDemoArgs(process.argv.slice(2));
  const { instances, basePort } = options;
  const lab = await startLab(options);
  console.log(`
Oversell Lab is running: ${instances} order-service instances (ports ${basePort}-${basePort + instances - 1}) behind one gateway (nginx, pid ${lab.edge.pid}).
  Dashboard  ${lab.gatewayUrl}/
  API docs   ${lab.gatewayUrl}/api/docs
  Health     ${lab.gatewayUrl}/health
${Object.entries(lab.lockServices).map(([variable, endpoint]) => `  ${variable}=${endpoint}\n`).join('')}Ctrl-C stops everything.`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the gateway, ${instances} instances and the lock services…`);
    await lab.stop();
    console.log('stopped; nothing left running.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

if (require.main === module) main().catch(exitOnCliError);
