/**
 * The options the launcher's commands share (the lab's size, a running lab's URL, the strategies, the
 * reports' folder), on the value rules of @oversell/loadtests; each command adds its own.
 */
import { STRATEGY_NAMES } from '@oversell/contracts';
import { commaList, httpUrl, valueOption, wholeNumber, type ValueRule } from '@oversell/loadtests';
import { Option } from 'commander';
import { BENCH_RESULTS_DIR } from './paths';

export { exitOnCliError, HelpRequested, parseCommand, UsageError } from '@oversell/loadtests';

/** The most order-service instances a lab starts on one machine. */
export const MAX_LAB_INSTANCES = 16;

export const LAB_INSTANCES = wholeNumber(1, MAX_LAB_INSTANCES);

export function instancesOption(fallback: number, rule: ValueRule<number> = LAB_INSTANCES): Option {
  return valueOption('--instances <n>', 'order-service instances of the lab it starts', rule).default(fallback);
}

export function urlOption(): Option {
  return valueOption('--url <base>', 'use a lab that is already running instead of starting one', httpUrl, 'start a lab');
}

export function strategiesOption(defaultText: string): Option {
  return valueOption('--strategies <list>', 'the strategies to run', commaList(STRATEGY_NAMES), defaultText);
}

export function outOption(): Option {
  return new Option('--out <dir>', 'folder the reports are written to').default(BENCH_RESULTS_DIR, 'bench-results/');
}

/** The command as the reports print it, to run it again. */
export function npmCommand(script: string, args: readonly string[]): string {
  return `npm run ${script}${args.length ? ' -- ' + args.join(' ') : ''}`;
}
