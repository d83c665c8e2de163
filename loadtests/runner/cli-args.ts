import { parseArgs } from 'node:util';
import { FAULT_LIMITS, isStrategyName, STRATEGY_NAMES, type StrategyName } from '@oversell/contracts';
import { LOAD_TARGETS, type DoubleClick, type LoadTarget } from './summary';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export const USAGE = `Usage: node loadtests/dist/cli.js --scenario <name> [options]
  --scenario <name>    scenario file in loadtests/scenarios, or a path ending in .json (required);
                       its faults go with the reset, its double-click fault to the load
  --url <base>         service base URL; repeat to spread the load (default ${DEFAULT_URL})
  --strategy <name>    ${STRATEGY_NAMES.join(' | ')} (default: the scenario's)
  --product <id>       product to reset and load (default: a random fresh one)
  --target <t>         ${LOAD_TARGETS.join(' | ')} (default orders)
  --no-reset           do not reset the product first (orders then need --product of a reset one)
  --double-click[=k]   send each order k times at once (default 2, up to ${FAULT_LIMITS.maxCopies}), with one idempotency
                       key: one order each (replaces the scenario's double-click fault)
  --no-idempotency-key with --double-click: send the copies without a key, so each copy is an order
  --json <file>        also write the summary as JSON
  --ipc                child mode for forkLoad: options arrive over the IPC channel`;

/** A bad command line; the CLI exits with 2 and this message, which names the argument. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliArgs {
  scenario: string;
  urls: string[];
  strategy?: StrategyName;
  productId?: number;
  target: LoadTarget;
  reset: boolean;
  jsonPath?: string;
  /** From --double-click; undefined leaves the scenario's double-click fault, if any. */
  doubleClick?: DoubleClick;
}

const DOUBLE_CLICK = '--double-click';
const DEFAULT_COPIES = 2;

export type CliMode = { mode: 'ipc' } | { mode: 'help' } | ({ mode: 'run' } & CliArgs);

export function parseCliArgs(argv: string[]): CliMode {
  let values;
  try {
    ({ values } = parseArgs({
      // parseArgs has no optional value: a bare --double-click means the default copies.
      args: argv.map((arg) => (arg === DOUBLE_CLICK ? `${DOUBLE_CLICK}=${DEFAULT_COPIES}` : arg)),
      strict: true,
      options: {
        scenario: { type: 'string' },
        url: { type: 'string', multiple: true },
        strategy: { type: 'string' },
        product: { type: 'string' },
        target: { type: 'string' },
        'no-reset': { type: 'boolean' },
        json: { type: 'string' },
        'double-click': { type: 'string' },
        'no-idempotency-key': { type: 'boolean' },
        ipc: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { mode: 'help' };
  if (values.ipc) return { mode: 'ipc' };
  if (!values.scenario) throw new UsageError('--scenario is required');
  const urls = values.url ?? [DEFAULT_URL];
  const badUrl = urls.find((url) => !/^https?:\/\//.test(url) || !URL.canParse(url));
  if (badUrl !== undefined) throw new UsageError(`--url must be an http(s) base URL (got "${badUrl}")`);
  if (values.strategy !== undefined && !isStrategyName(values.strategy)) {
    throw new UsageError(`--strategy must be one of ${STRATEGY_NAMES.join(', ')} (got "${values.strategy}")`);
  }
  const target = values.target ?? 'orders';
  if (!(LOAD_TARGETS as readonly string[]).includes(target)) {
    throw new UsageError(`--target must be one of ${LOAD_TARGETS.join(', ')} (got "${target}")`);
  }
  const productId = values.product === undefined ? undefined : Number(values.product);
  if (productId !== undefined && (!Number.isSafeInteger(productId) || productId < 1)) {
    throw new UsageError(`--product must be a positive integer (got "${values.product}")`);
  }
  const copies = values['double-click'] === undefined ? undefined : Number(values['double-click']);
  if (copies !== undefined && (!Number.isInteger(copies) || copies < 2 || copies > FAULT_LIMITS.maxCopies)) {
    throw new UsageError(`--double-click must be a whole number of copies from 2 to ${FAULT_LIMITS.maxCopies} (got "${values['double-click']}")`);
  }
  // A fresh product was never reset: every order would be a 404.
  if (values['no-reset'] && target === 'orders' && productId === undefined) throw new UsageError('--no-reset with --target orders needs --product: the product to load must have been reset before');
  if (values['no-idempotency-key'] && copies === undefined) throw new UsageError('--no-idempotency-key needs --double-click');
  if (copies !== undefined && target !== 'orders') throw new UsageError('--double-click applies to --target orders only (the no-op takes no key)');
  return {
    mode: 'run',
    scenario: values.scenario,
    urls,
    strategy: values.strategy,
    productId,
    target: target as LoadTarget,
    reset: !values['no-reset'],
    jsonPath: values.json,
    doubleClick: copies === undefined ? undefined : { copies, idempotencyKey: !values['no-idempotency-key'] },
  };
}
