import { FAULT_LIMITS, STRATEGY_NAMES, type StrategyName } from '@oversell/contracts';
import { choiceOption, cliCommand, httpUrls, parseCommand, UsageError, valueOption, wholeNumber } from './cli-options';
import { LOAD_TARGETS, type DoubleClick, type LoadTarget } from './summary';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

const DEFAULT_COPIES = 2;

/** The load CLI's options; a fresh command per parse (commander keeps the values it parsed). */
export function loadCommand() {
  return cliCommand('load', 'Resets a product, drives one scenario\'s load at the order service (or the lab) and prints what the client and the server saw.')
    .option('--scenario <name>', 'scenario in loadtests/scenarios, or a path ending in .json (required); its faults go with the reset, its double-click fault to the load')
    .addOption(valueOption('--url <base>', 'service base URL', httpUrls, DEFAULT_URL))
    .addOption(choiceOption('--strategy <name>', "strategy to reset the product for (default: the scenario's)", STRATEGY_NAMES))
    .addOption(valueOption('--product <id>', 'product to reset and load', wholeNumber(1), 'a random fresh one'))
    .addOption(choiceOption('--target <t>', 'what the load calls', LOAD_TARGETS).default('orders'))
    .option('--no-reset', 'do not reset the product first (orders then need --product of a reset one)')
    .addOption(
      valueOption('--double-click [copies]', "send each order that many times at once, with one idempotency key: one order each (replaces the scenario's double-click fault)", wholeNumber(2, FAULT_LIMITS.maxCopies)).preset(String(DEFAULT_COPIES)),
    )
    .option('--no-idempotency-key', 'with --double-click: send the copies without a key, so each copy is an order')
    .option('--json <file>', 'also write the summary as JSON')
    .option('--ipc', 'child mode for forkLoad: options arrive over the IPC channel');
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

export type CliMode = { mode: 'ipc' } | ({ mode: 'run' } & CliArgs);

/** The command line, checked; throws HelpRequested for --help and UsageError naming the argument. */
export function parseCliArgs(argv: string[]): CliMode {
  const values = parseCommand(loadCommand(), argv);
  if (values.ipc) return { mode: 'ipc' };
  if (!values.scenario) throw new UsageError('--scenario is required');
  const target = values.target as LoadTarget;
  const productId = values.product as number | undefined;
  const copies = values.doubleClick as number | undefined;
  // A fresh product was never reset: every order would be a 404.
  if (!values.reset && target === 'orders' && productId === undefined) throw new UsageError('--no-reset with --target orders needs --product: the product to load must have been reset before');
  if (!values.idempotencyKey && copies === undefined) throw new UsageError('--no-idempotency-key needs --double-click');
  if (copies !== undefined && target !== 'orders') throw new UsageError('--double-click applies to --target orders only (the no-op takes no key)');
  return {
    mode: 'run',
    scenario: values.scenario as string,
    urls: (values.url as string[] | undefined) ?? [DEFAULT_URL],
    strategy: values.strategy as StrategyName | undefined,
    productId,
    target,
    reset: values.reset as boolean,
    jsonPath: values.json as string | undefined,
    doubleClick: copies === undefined ? undefined : { copies, idempotencyKey: values.idempotencyKey as boolean },
  };
}
