/**
 * The value rules and the error handling every command line of the lab shares (the load CLI, the launcher's
 * commands, the order service's measurements), on commander: each rule parses one option's value and says
 * in the help what it takes; a bad command line is one line on stderr and exit code 2, --help exit 0.
 */
import { Command, CommanderError, InvalidArgumentError, Option, type OptionValues } from 'commander';

/** A bad command line: the command prints this one line and exits 2, having started nothing. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** --help was asked for: the command prints the text and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly text: string) {
    super('help requested');
    this.name = 'HelpRequested';
  }
}

export const EXIT_USAGE = 2;

/** How one option's value is read: `takes` is what the help and the errors say it takes. */
export interface ValueRule<T> {
  takes: string;
  parse: (raw: string, previous: T | undefined) => T;
}

/** Decimal digits only: Number() would also take '', '1e3', '0x10' and ' 10'. */
export function wholeNumber(min: number, max?: number): ValueRule<number> {
  const takes = max === undefined ? `whole number from ${min}` : `whole number from ${min} to ${max}`;
  return {
    takes,
    parse: (raw) => {
      const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) throw new InvalidArgumentError(`It must be a ${takes}.`);
      return value;
    },
  };
}

/** A comma list; given empty it is an error, never "all of them". With `valid`, every item must be one of them. */
export function commaList(valid?: readonly string[]): ValueRule<string[]> {
  return {
    takes: valid ? `comma list of ${valid.join(', ')}` : 'comma list',
    parse: (raw) => {
      const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
      if (!items.length) throw new InvalidArgumentError('It is empty: name at least one, or leave the option out for all of them.');
      const unknown = valid ? items.filter((item) => !valid.includes(item)) : [];
      if (unknown.length) throw new InvalidArgumentError(`Unknown ${unknown.join(', ')}; valid: ${valid!.join(', ')}.`);
      return items;
    },
  };
}

/**
 * The option may be given again, its lists adding up. Only for an option without a default value:
 * commander hands the default to the first value as the list to add to.
 */
export function repeatable<T>(rule: ValueRule<T[]>): ValueRule<T[]> {
  return { takes: `${rule.takes}; the option may be repeated`, parse: (raw, previous) => [...(previous ?? []), ...rule.parse(raw, undefined)] };
}

/** A comma list of distinct whole numbers, each within bounds. */
export function wholeNumberList(min: number, max: number): ValueRule<number[]> {
  const each = wholeNumber(min, max);
  const takes = `comma list of distinct whole numbers from ${min} to ${max}`;
  return {
    takes,
    parse: (raw) => {
      const numbers = raw.split(',').map((item) => {
        try {
          return each.parse(item.trim(), undefined);
        } catch {
          throw new InvalidArgumentError(`It must be a ${takes}.`);
        }
      });
      if (new Set(numbers).size !== numbers.length) throw new InvalidArgumentError('It names a number twice.');
      return numbers;
    },
  };
}

/** An http(s) base URL, such as http://127.0.0.1:8080. */
export const httpUrl: ValueRule<string> = {
  takes: 'http(s) URL such as http://127.0.0.1:8080',
  parse: (raw) => {
    if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) throw new InvalidArgumentError('It must be an http(s) URL such as http://127.0.0.1:8080.');
    return raw;
  },
};

/** A file or folder path, taken as given (a missing file is the command's to report, with its meaning). */
export const filePath: ValueRule<string> = { takes: 'path', parse: (raw) => raw };

/** Every URL given, in order, for an option that may be repeated. */
export const httpUrls: ValueRule<string[]> = repeatable({ takes: httpUrl.takes, parse: (raw) => [httpUrl.parse(raw, undefined)] });

/**
 * An option whose description ends with what its value takes; commander's help adds a `.default(value)`
 * after it. `defaultText` is a default that is no value (the scenario's, a fresh product), said the same way.
 */
export function valueOption<T>(flags: string, description: string, rule: ValueRule<T>, defaultText?: string): Option {
  return new Option(flags, `${description}: ${rule.takes}${defaultText === undefined ? '' : ` (default: ${defaultText})`}`).argParser(rule.parse);
}

/** One of a few names (commander's choices: the help lists them, anything else is refused). */
export function choiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return new Option(flags, description).choices(choices);
}

/** A command that reports instead of exiting, so parsing can be tested in-process and the exit code chosen here. */
export function cliCommand(name: string, description: string): Command {
  return new Command(name).description(description).helpOption('-h, --help', 'show this help and exit').allowExcessArguments(false);
}

/** Parses `argv` (the arguments after the script); throws HelpRequested or UsageError, never exits. */
export function parseCommand(command: Command, argv: readonly string[]): OptionValues {
  let out = '';
  command.exitOverride().configureOutput({ writeOut: (text) => (out += text), writeErr: (text) => (out += text), outputError: () => undefined });
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) throw new HelpRequested(out);
    // One line: commander puts its "did you mean" suggestion on a line of its own.
    throw new UsageError(error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '));
  }
  return command.opts();
}

/** Where a value given on the command line (not its default, nor its env variable) came from. */
export function givenOnCommandLine(command: Command, name: string): boolean {
  return command.getOptionValueSource(name) === 'cli';
}

/** The exit for a command's failure: help on stdout (0), a bad command line as one line on stderr (2), else the error (1). */
export function exitOnCliError(error: unknown): never {
  if (error instanceof HelpRequested) {
    process.stdout.write(error.text);
    process.exit(0);
  }
  if (error instanceof UsageError) {
    console.error(`usage: ${error.message} (--help lists the options)`);
    process.exit(EXIT_USAGE);
  }
  console.error(error);
  process.exit(1);
}
