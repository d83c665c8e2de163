import 'reflect-metadata';
import { appConfig, type AppConfig } from './config/configuration';
import { createApp } from './create-app';
import { logUnhandledRejections } from './log-unhandled-rejections';

async function main(): Promise<void> {
  const app = await createApp();
  const config = app.get<AppConfig>(appConfig.KEY);
  await app.listen({ port: config.port, host: config.host });
  // The launcher waits for this line (on stdout) before it sends traffic to the instance.
  process.stdout.write(`order-service ${config.instanceId} listening on http://${config.host}:${config.port}\n`);
}

logUnhandledRejections();
main().catch((error: unknown) => {
  process.stderr.write(`order-service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
