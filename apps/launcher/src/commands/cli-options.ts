/**
 * The options the launcher's commands share (the lab's size, a running lab's URL, the strategies, the
 * reports' folder), on the value rules of @oversell/cli; each command adds its own.
 */
import { commaList, httpUrl, plainOption, valueOption, wholeNumber, type Bilingual, type Option, type ValueRule } from '@oversell/cli';
import { RUN_LIMITS, STRATEGY_NAMES } from '@oversell/contracts';
import { BENCH_RESULTS_DIR } from '../lab/paths';

/** The most order-service instances a lab starts on one machine. */
export const MAX_LAB_INSTANCES = 16;

export const LAB_INSTANCES = wholeNumber(1, MAX_LAB_INSTANCES);

export function instancesOption(fallback: number, rule: ValueRule<number> = LAB_INSTANCES): Option {
  return valueOption('--instances <n>', { en: 'order-service instances of the lab it starts', zh: '所启动实验室的订单服务实例数' }, rule).default(fallback);
}

/** --connections: the load's concurrent connections, within what the API takes for a run. */
export function connectionsOption(defaultText?: Bilingual, description: Bilingual = { en: 'concurrent connections', zh: '并发连接数' }): Option {
  return valueOption('--connections <n>', description, wholeNumber(1, RUN_LIMITS.maxConnections), defaultText);
}

/** --stock: the product's units, within what the API takes for a run; from 0 where a command measures a sold-out product too. */
export function stockOption({ defaultText, description = { en: 'units of the product', zh: '商品库存件数' }, least = 1 }: { defaultText?: Bilingual; description?: Bilingual; least?: 0 | 1 } = {}): Option {
  return valueOption('--stock <n>', description, wholeNumber(least, RUN_LIMITS.maxStock), defaultText);
}

export function urlOption(): Option {
  return valueOption('--url <base>', { en: 'use a lab that is already running instead of starting one', zh: '使用已在运行的实验室，而不另行启动' }, httpUrl, { en: 'start a lab', zh: '启动一个实验室' });
}

export function strategiesOption(defaultText: Bilingual): Option {
  return valueOption('--strategies <list>', { en: 'the strategies to run', zh: '要运行的策略' }, commaList(STRATEGY_NAMES), defaultText);
}

export function outOption(): Option {
  return plainOption('--out <dir>', { en: 'folder the reports are written to', zh: '报告写入的目录' }).default(BENCH_RESULTS_DIR, 'bench-results/');
}

/** What the commands that start a lab of their own for a steady load read alike: the product, the load, the lab, the reports' folder, and the command to run again. */
export function steadyLoadValues(values: Record<string, unknown>, script: string, args: readonly string[]): { stock: number; connections: number; instances: number; outDir: string; command: string } {
  return { stock: values.stock as number, connections: values.connections as number, instances: values.instances as number, outDir: values.out as string, command: npmCommand(script, args) };
}

/** The command as the reports print it, to run it again. */
export function npmCommand(script: string, args: readonly string[]): string {
  return `npm run ${script}${args.length ? ' -- ' + args.join(' ') : ''}`;
}
