/**
 * `npm run demo`: checks Redis and MariaDB, starts K order-service instances and the gateway, prints
 * where to look, and stops everything it started on Ctrl-C.
 *   --instances 3   --port 8080   --base-port 3001
 */
import { intOption, parse, UsageError } from './cli-options';
import { startLab } from './lab';

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), { instances: { type: 'string' }, port: { type: 'string' }, 'base-port': { type: 'string' } });
  const instances = intOption(values, 'instances', Number(process.env.LAB_INSTANCES ?? 3), 1, 16);
  const gatewayPort = intOption(values, 'port', Number(process.env.LAB_PORT ?? 8080), 1, 65535);
  const basePort = intOption(values, 'base-port', 3001, 1, 65535 - instances);

  const lab = await startLab({ instances, gatewayPort, basePort });
  console.log(`
Oversell Lab is running: ${instances} order-service instances (ports ${basePort}-${basePort + instances - 1}) behind one gateway.
  Dashboard  ${lab.gatewayUrl}/
  API docs   ${lab.gatewayUrl}/api/docs
  Health     ${lab.gatewayUrl}/health
Ctrl-C stops everything.`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the gateway and ${instances} instances…`);
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
