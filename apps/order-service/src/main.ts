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

/**
 * An instance the launcher started holds an IPC channel to it: when the launcher is gone (Ctrl-C'd, killed,
 * crashed), the channel closes and the instance shuts down as on SIGTERM, instead of living on as an
 * orphan that keeps its port (a lab started on those ports next then fails with EADDRINUSE).
 */
function stopWithTheLauncher(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

logUnhandledRejections();
stopWithTheLauncher();
main().catch((error: unknown) => {
  process.stderr.write(`order-service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
