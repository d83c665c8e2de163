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
import { intOption, parse, UsageError } from './cli-options';
import { startLab } from './lab';

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), { instances: { type: 'string' }, port: { type: 'string' }, 'base-port': { type: 'string' }, host: { type: 'string' }, 'public-host': { type: 'string' }, sentinels: { type: 'boolean' } });
  const instances = intOption(values, 'instances', 3, 1, 16, 'LAB_INSTANCES');
  const gatewayPort = intOption(values, 'port', 8080, 1, 65535, 'LAB_PORT');
  const basePort = intOption(values, 'base-port', 3001, 1, 65535 - instances);

  const gatewayHost = String(values.host ?? process.env.LAB_HOST ?? '127.0.0.1');

  const publicHosts = publicHostNames(String(values['public-host'] ?? process.env.LAB_PUBLIC_HOST ?? ''));

  const lab = await startLab({ instances, gatewayPort, basePort, gatewayHost, publicHosts, services: values.sentinels === true ? ['redis-sentinel'] : undefined });
  console.log(`
Oversell Lab is running: ${instances} order-service instances (ports ${basePort}-${basePort + instances - 1}) behind one gateway.
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

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? `usage: ${error.message}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
