import { ADDRESS_FORMATS, isLoopbackHost, LOCK_SERVICES, lockServiceAddressMessage, publicHostNames, TRACE_WINDOW, type LockService } from '@oversell/contracts';
import { DEFAULT_SENTINEL_MASTER, LAB_MYSQL_PASSWORD, LAB_MYSQL_USER } from '@oversell/stock';
import * as Joi from 'joi';

const LOOPBACK = Joi.string().custom((host: string, helpers) => (isLoopbackHost(host) ? host : helpers.error('any.invalid')));

/**
 * Every environment variable the service reads, validated at start: a wrong or missing value stops
 * the service with a message naming the variable. Defaults point at the local services.
 */
export const envSchema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'production', 'test').default('development'),
  PORT: Joi.number().port().default(3000),
  HOST: Joi.string().default('127.0.0.1'),
  INSTANCE_ID: Joi.string().max(64).pattern(/^[\w.-]+$/),
  INSTANCE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  BODY_LIMIT_BYTES: Joi.number().integer().min(256).max(1_048_576).default(16_384),
  LOCK_WAIT_TIMEOUT_MS: Joi.number().integer().min(0).max(600_000).default(10_000),
  OPTIMISTIC_MAX_ATTEMPTS: Joi.number().integer().min(1).max(1000).default(25),
  // A deliberately skewed clock for the setnx-getset lock's pitfall; an hour either way is plenty.
  CLOCK_OFFSET_MS: Joi.number().integer().min(-3_600_000).max(3_600_000).default(0),
  RUN_WORKER: Joi.boolean().default(true),
  ORDER_WRITER: Joi.boolean().default(true),
  // The run trace's window: enough for the first double sales of a lab run; 0 for the bench's "off" side.
  TRACED_ORDERS: Joi.number().integer().min(0).max(TRACE_WINDOW.maxOrders).default(TRACE_WINDOW.defaultOrders),
  // Admin actions (resets, runs, break-locks) need it as a bearer token whenever it is set; bound
  // beyond loopback the service does not start without one, or those actions would be open to anyone.
  // Printable ASCII without spaces: what an Authorization: Bearer header can carry (a token with a space
  // could never be presented, and one of 16 spaces would "guard" an instance bound to every interface).
  ADMIN_TOKEN: Joi.string()
    .empty('')
    .min(16)
    .pattern(/^[\x21-\x7e]+$/)
    .when('HOST', { is: LOOPBACK, otherwise: Joi.required() })
    .messages({
      'any.required': '"ADMIN_TOKEN" is required when HOST is not a loopback address (set a secret of 16 or more characters)',
      'string.pattern.base': '"ADMIN_TOKEN" must be printable ASCII without spaces (it is sent as Authorization: Bearer <token>)',
    }),
  // Origins allowed to call the API from a browser, comma-separated; none by default (same origin only).
  CORS_ORIGINS: Joi.string()
    .allow('')
    .pattern(/^(https?:\/\/[^\s,]+)(,https?:\/\/[^\s,]+)*$/)
    .default(''),
  // Host names the lab is reached by beyond loopback, comma-separated (the Host check answers them and
  // loopback names and addresses; see http/host-check.ts).
  LAB_PUBLIC_HOST: Joi.string()
    .allow('')
    .custom((value: string, helpers) => (publicHostNames(value).every((name) => /^[\w.:-]+$/.test(name)) ? value : helpers.error('any.invalid')))
    .default(''),
  // Runs waiting in the queue; beyond it POST /api/runs and /batch answer 429 and queue nothing. The
  // default takes a compare batch of every strategy (with its warm-up and ceiling runs: 21 with etcd) whole.
  RUN_QUEUE_LIMIT: Joi.number().integer().min(1).max(1000).default(40),
  // The folder of this lab's bench, lock-bench and pitfalls reports (the launcher's bench-results/), read by
  // GET /api/lab-figures/*; unset, the Explain view shows the figures recorded on a maintainer's machine.
  LAB_RESULTS_DIR: Joi.string().allow(''),

  MYSQL_HOST: Joi.string().hostname().default('127.0.0.1'),
  MYSQL_PORT: Joi.number().port().default(3306),
  MYSQL_USER: Joi.string().default(LAB_MYSQL_USER),
  MYSQL_PASSWORD: Joi.string().allow('').default(LAB_MYSQL_PASSWORD),
  MYSQL_DATABASE: Joi.string().pattern(/^\w+$/).default('oversell_lab'),
  MYSQL_POOL_SIZE: Joi.number().integer().min(1).max(500).default(20),

  REDIS_HOST: Joi.string().hostname().default('127.0.0.1'),
  REDIS_PORT: Joi.number().port().default(6379),
  REDIS_PASSWORD: Joi.string().allow(''),
  REDIS_KEY_PREFIX: Joi.string().pattern(/^[\w.-]+$/).default('ol'),
  // Route the stock's Redis connections through an in-process proxy a store-cut fault can cut; it costs
  // throughput, so only the lab turns it on (the bench does not).
  STORE_PROXY: Joi.boolean().default(false),

  // The lock services, each needed only by the strategies that lock on it (unset: those refuse orders, 503).
  // REDIS_SENTINELS: a Sentinel group for the single-Redis locks (the failover fault's): their keys go to
  // its master, the stock stays on REDIS_HOST.
  ...Object.fromEntries(
    (Object.keys(LOCK_SERVICES) as LockService[]).map((service) => [
      LOCK_SERVICES[service].env,
      Joi.string().pattern(ADDRESS_FORMATS[LOCK_SERVICES[service].address].pattern).messages({ 'string.pattern.base': lockServiceAddressMessage(service) }),
    ]),
  ),
  REDIS_SENTINEL_MASTER: Joi.string()
    .pattern(/^[\w.-]+$/)
    .default(DEFAULT_SENTINEL_MASTER)
    .messages({ 'string.pattern.base': '"REDIS_SENTINEL_MASTER" must be the master\'s name in the Sentinels\' config (letters, digits, _ . -)' }),
});
