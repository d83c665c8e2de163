import 'reflect-metadata';
import { appConfig, type AppConfig } from './config/configuration';
import { createApp, SHUTDOWN_SIGNALS } from './create-app';
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

/**
 * How long a shutdown may take before the process exits anyway: shorter than the launcher's grace
 * before its SIGKILL (10 s), so an instance says why it stopped waiting.
 */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Nest closes the app on SIGTERM or SIGINT (enableShutdownHooks), each provider's hook in turn. One that
 * never returns (a queue worker or a Redis QUIT waiting on a store that stopped answering) would keep
 * the process, and its port, for good: an orphan nobody is left to SIGKILL. Past the grace period the
 * process exits anyway, saying so.
 */
function boundTheShutdown(): void {
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => {
      setTimeout(() => {
        process.stderr.write(`order-service: shutdown still not done after ${SHUTDOWN_GRACE_MS} ms (a store not answering?); exiting without it\n`);
        process.exit(1);
      }, SHUTDOWN_GRACE_MS).unref();
    });
  }
}

logUnhandledRejections();
stopWithTheLauncher();
boundTheShutdown();
main().catch((error: unknown) => {
  process.stderr.write(`order-service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
