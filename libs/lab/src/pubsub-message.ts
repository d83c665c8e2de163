import type { Logger } from '@nestjs/common';
import type { Schema } from 'joi';

/**
 * Reads one Redis pub/sub message against the shape its listener expects. A malformed one (not JSON,
 * or not that shape: `null` is valid JSON) is logged and dropped, never thrown: a throw inside an
 * ioredis 'message' listener is an uncaught exception, and would take the whole instance down.
 */
export function readMessage<T>(schema: Schema<T>, channel: string, raw: string, logger: Logger): T | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    logger.warn(`ignored a message on ${channel} that is not JSON (${error instanceof Error ? error.message : String(error)}): ${raw.slice(0, 200)}`);
    return null;
  }
  const { error, value: valid } = schema.validate(value, { allowUnknown: true, convert: false });
  if (error) {
    logger.warn(`ignored a malformed message on ${channel} (${error.message}): ${raw.slice(0, 200)}`);
    return null;
  }
  return valid;
}
