import { Logger } from '@nestjs/common';

/**
 * Logs every promise rejection nobody handled, loudly (error level, with its stack): each one is a
 * bug, to be fixed where the promise was dropped. The process does not exit, as Node would by default:
 * the rejection comes from a task that already stopped at its await, and exiting would also end every
 * order in flight on this instance and fail the run it serves. Uncaught exceptions keep Node's default
 * (exit): one thrown mid-way through synchronous code leaves state no one can vouch for.
 */
export function logUnhandledRejections(logger = new Logger('UnhandledRejection')): void {
  process.on('unhandledRejection', (reason: unknown) => {
    const message = reason instanceof Error ? reason.message : String(reason);
    logger.error(`BUG: a promise rejected and nothing handled it (the instance keeps serving): ${message}`, reason instanceof Error ? reason.stack : undefined);
  });
}
