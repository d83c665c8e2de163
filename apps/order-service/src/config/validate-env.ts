import { envSchema } from './env.schema';

/**
 * Validates the environment before anything starts, so the Fastify adapter (created before the Nest
 * container exists) reads the same checked values, and a bad value stops start-up naming the variable.
 */
export function validateEnv(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const { error, value } = envSchema.validate(env, { abortEarly: false, allowUnknown: true });
  if (error) throw new Error(`invalid configuration: ${error.details.map((d) => d.message).join('; ')}`);
  return value;
}
