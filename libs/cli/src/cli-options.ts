/**
 * The value rules and the error handling every command line of the lab shares (the load CLI, the launcher's
 * commands, the lock bench, the order service's measurements), on commander: each rule parses one option's value and says
 * in the help what it takes; a bad command line is one line on stderr and exit code 2, --help exit 0.
 * The help and the rules' errors are in English or Simplified Chinese, as the locale (LC_ALL, LC_MESSAGES,
 * LANG) asks; option names, values and commander's own words about them stay as they are.
 */
import { Command, CommanderError, Help, InvalidArgumentError, Option, type OptionValues } from 'commander';

/** A text a user reads, written in both languages at its source. */
export interface Bilingual {
  en: string;
  zh: string;
}

/** The language the locale asks for: Chinese for any zh locale, English otherwise. */
export function cliLanguage(env: NodeJS.ProcessEnv = process.env): keyof Bilingual {
  return /^zh/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || '') ? 'zh' : 'en';
}

export function say(text: Bilingual): string {
  return text[cliLanguage()];
}

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
  takes: Bilingual;
  parse: (raw: string, previous: T | undefined) => T;
}

/** Decimal digits only: Number() would also take '', '1e3', '0x10' and ' 10'. */
export function wholeNumber(min: number, max?: number): ValueRule<number> {
  const takes = max === undefined ? { en: `whole number from ${min}`, zh: `不小于 ${min} 的整数` } : { en: `whole number from ${min} to ${max}`, zh: `${min} 到 ${max} 之间的整数` };
  return {
    takes,
    parse: (raw) => {
      const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) throw new InvalidArgumentError(say({ en: `It must be a ${takes.en}.`, zh: `应为：${takes.zh}。` }));
      return value;
    },
  };
}

/** A comma list; given empty it is an error, never "all of them". With `valid`, every item must be one of them. */
export function commaList(valid?: readonly string[]): ValueRule<string[]> {
  return {
    takes: valid ? { en: `comma list of ${valid.join(', ')}`, zh: `逗号分隔的列表，取自 ${valid.join(', ')}` } : { en: 'comma list', zh: '逗号分隔的列表' },
    parse: (raw) => {
      const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
      if (!items.length) throw new InvalidArgumentError(say({ en: 'It is empty: name at least one, or leave the option out for all of them.', zh: '列表为空：至少写一个，或不写这个选项以取全部。' }));
      const unknown = valid ? items.filter((item) => !valid.includes(item)) : [];
      if (unknown.length) throw new InvalidArgumentError(say({ en: `Unknown ${unknown.join(', ')}; valid: ${valid!.join(', ')}.`, zh: `未知的 ${unknown.join(', ')}；可用的有 ${valid!.join(', ')}。` }));
      return items;
    },
  };
}

/**
 * The option may be given again, its lists adding up. Only for an option without a default value:
 * commander hands the default to the first value as the list to add to.
 */
export function repeatable<T>(rule: ValueRule<T[]>): ValueRule<T[]> {
  return { takes: { en: `${rule.takes.en}; the option may be repeated`, zh: `${rule.takes.zh}；此选项可重复给出` }, parse: (raw, previous) => [...(previous ?? []), ...rule.parse(raw, undefined)] };
}

/** A comma list of distinct whole numbers, each within bounds. */
export function wholeNumberList(min: number, max: number): ValueRule<number[]> {
  const each = wholeNumber(min, max);
  const takes = { en: `comma list of distinct whole numbers from ${min} to ${max}`, zh: `逗号分隔、互不相同的 ${min} 到 ${max} 之间的整数` };
  return {
    takes,
    parse: (raw) => {
      const numbers = raw.split(',').map((item) => {
        try {
          return each.parse(item.trim(), undefined);
        } catch {
          throw new InvalidArgumentError(say({ en: `It must be a ${takes.en}.`, zh: `应为：${takes.zh}。` }));
        }
      });
      if (new Set(numbers).size !== numbers.length) throw new InvalidArgumentError(say({ en: 'It names a number twice.', zh: '其中有重复的数。' }));
      return numbers;
    },
  };
}

/** An http(s) base URL, such as http://127.0.0.1:8080. */
export const httpUrl: ValueRule<string> = {
  takes: { en: 'http(s) URL such as http://127.0.0.1:8080', zh: 'http(s) 地址，如 http://127.0.0.1:8080' },
  parse: (raw) => {
    if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) throw new InvalidArgumentError(say({ en: 'It must be an http(s) URL such as http://127.0.0.1:8080.', zh: '应为 http(s) 地址，如 http://127.0.0.1:8080。' }));
    return raw;
  },
};

/** A file or folder path, taken as given (a missing file is the command's to report, with its meaning). */
export const filePath: ValueRule<string> = { takes: { en: 'path', zh: '路径' }, parse: (raw) => raw };

/** Every URL given, in order, for an option that may be repeated. */
export const httpUrls: ValueRule<string[]> = repeatable({ takes: httpUrl.takes, parse: (raw) => [httpUrl.parse(raw, undefined)] });

/**
 * An option whose description ends with what its value takes; commander's help adds a `.default(value)`
 * after it. `defaultText` is a default that is no value (the scenario's, a fresh product), said the same way.
 */
export function valueOption<T>(flags: string, description: Bilingual, rule: ValueRule<T>, defaultText?: Bilingual): Option {
  const fallback = defaultText && { en: ` (default: ${defaultText.en})`, zh: ` (默认：${defaultText.zh})` };
  return new Option(flags, say({ en: `${description.en}: ${rule.takes.en}${fallback?.en ?? ''}`, zh: `${description.zh}：${rule.takes.zh}${fallback?.zh ?? ''}` })).argParser(rule.parse);
}

/** One of a few names (commander's choices: the help lists them, anything else is refused). */
export function choiceOption(flags: string, description: Bilingual, choices: readonly string[]): Option {
  return new Option(flags, say(description)).choices(choices);
}

/** An option with no value rule: a flag, or a value taken as written. */
export function plainOption(flags: string, description: Bilingual): Option {
  return new Option(flags, say(description));
}

/** Commander's words in the help, in Chinese: its titles and the notes it adds after a description. */
const HELP_ZH: [RegExp, string][] = [
  [/^Usage:$/, '用法：'],
  [/^Options:$/, '选项：'],
  [/\bdefault: /g, '默认：'],
  [/\bchoices: /g, '可选：'],
  [/\benv: /g, '环境变量：'],
  [/\bpreset: /g, '只写选项时：'],
];

class BilingualHelp extends Help {
  styleTitle(title: string): string {
    return cliLanguage() === 'zh' ? HELP_ZH.reduce((text, [words, zh]) => text.replace(words, zh), title) : title;
  }

  optionDescription(option: Option): string {
    const description = super.optionDescription(option);
    // Only the notes commander adds, in its parenthesis at the end, not the option's own words.
    if (cliLanguage() !== 'zh' || !description.endsWith(')')) return description;
    const at = description.lastIndexOf(' (');
    return description.slice(0, at) + HELP_ZH.slice(2).reduce((text, [words, zh]) => text.replace(words, zh), description.slice(at));
  }
}

/** A command that reports instead of exiting, so parsing can be tested in-process and the exit code chosen here. */
export function cliCommand(name: string, description: Bilingual): Command {
  const command = new Command(name).description(say(description)).helpOption('-h, --help', say({ en: 'show this help and exit', zh: '显示本帮助并退出' })).allowExcessArguments(false);
  command.createHelp = () => Object.assign(new BilingualHelp(), command.configureHelp());
  return command;
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
    console.error(say({ en: `usage: ${error.message} (--help lists the options)`, zh: `用法错误：${error.message}（--help 列出全部选项）` }));
    process.exit(EXIT_USAGE);
  }
  console.error(error);
  process.exit(1);
}
