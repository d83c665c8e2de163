import { FAULT_LIMITS, STRATEGY_NAMES, type StrategyName } from '@oversell/contracts';
import { choiceOption, cliCommand, filePath, httpUrls, parseCommand, plainOption, UsageError, valueOption, wholeNumber } from '@oversell/cli';
import { LOAD_TARGETS, type DoubleClick, type LoadTarget } from './summary';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

const DEFAULT_COPIES = 2;

/** The load CLI's options; a fresh command per parse (commander keeps the values it parsed). */
export function loadCommand() {
  return cliCommand('load', {
    en: "Resets a product, drives one scenario's load at the order service (or the lab) and prints what the client and the server saw.",
    zh: '重置一个商品，按一个场景向订单服务（或实验室）施加负载，并打印客户端与服务端各自看到的结果。',
  })
    .addOption(
      valueOption(
        '--scenario <name>',
        { en: 'scenario in loadtests/scenarios, or a .json file (required); its faults go with the reset, its double-click fault to the load', zh: 'loadtests/scenarios 中的场景，或一个 .json 文件（必填）；其故障随重置下发，其重复点击故障作用于负载' },
        { takes: { en: 'name or path', zh: '名称或路径' }, parse: (raw) => raw },
      ),
    )
    .addOption(valueOption('--url <base>', { en: 'service base URL', zh: '服务的基础地址' }, httpUrls, { en: DEFAULT_URL, zh: DEFAULT_URL }))
    .addOption(choiceOption('--strategy <name>', { en: "strategy to reset the product for (default: the scenario's)", zh: '重置商品时使用的策略（默认：场景所定的）' }, STRATEGY_NAMES))
    .addOption(valueOption('--product <id>', { en: 'product to reset and load', zh: '要重置并施压的商品' }, wholeNumber(1), { en: 'a random fresh one', zh: '随机取一个新商品' }))
    .addOption(choiceOption('--target <t>', { en: 'what the load calls', zh: '负载调用的接口' }, LOAD_TARGETS).default('orders'))
    .addOption(plainOption('--no-reset', { en: 'do not reset the product first (orders then need --product of a reset one)', zh: '不先重置商品（此时下单需用 --product 指定一个已重置的商品）' }))
    .addOption(
      valueOption(
        '--double-click [copies]',
        { en: "send each order that many times at once, with one idempotency key: one order each (replaces the scenario's double-click fault)", zh: '每笔订单同时发送这么多份，共用一个幂等键：每笔只成一单（取代场景的重复点击故障）' },
        wholeNumber(2, FAULT_LIMITS.maxCopies),
      ).preset(String(DEFAULT_COPIES)),
    )
    .addOption(plainOption('--no-idempotency-key', { en: 'with --double-click: send the copies without a key, so each copy is an order', zh: '与 --double-click 同用：各份不带幂等键发送，于是每份都成一单' }))
    .addOption(valueOption('--json <file>', { en: 'also write the summary as JSON', zh: '另把汇总写成 JSON 文件' }, filePath))
    .addOption(plainOption('--ipc', { en: 'child mode for forkLoad: options arrive over the IPC channel', zh: 'forkLoad 的子进程模式：选项经 IPC 通道传入' }));
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
