import { parseArgs } from 'node:util';
import { isStrategyName, STRATEGY_NAMES, type StrategyName } from '@oversell/contracts';
import { LOAD_TARGETS, type LoadTarget } from './summary';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export const USAGE = `Usage: node loadtests/dist/cli.js --scenario <name> [options]
  --scenario <name>    scenario file in loadtests/scenarios (required)
  --url <base>         service base URL; repeat to spread the load (default ${DEFAULT_URL})
  --strategy <name>    ${STRATEGY_NAMES.join(' | ')} (default: the scenario's)
  --product <id>       product to reset and load (default: a random fresh one)
  --target <t>         ${LOAD_TARGETS.join(' | ')} (default orders)
  --no-reset           do not reset the product first
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
}

export type CliMode = { mode: 'ipc' } | { mode: 'help' } | ({ mode: 'run' } & CliArgs);

export function parseCliArgs(argv: string[]): CliMode {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        scenario: { type: 'string' },
        url: { type: 'string', multiple: true },
        strategy: { type: 'string' },
        product: { type: 'string' },
        target: { type: 'string' },
        'no-reset': { type: 'boolean' },
        json: { type: 'string' },
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
  return {
    mode: 'run',
    scenario: values.scenario,
    urls,
    strategy: values.strategy,
    productId,
    target: target as LoadTarget,
    reset: !values['no-reset'],
    jsonPath: values.json,
  };
}
