import { cliCommand, cliLanguage, commaList, httpUrl, parseCommand, plainOption, repeatable, UsageError, valueOption, wholeNumber, wholeNumberList, HelpRequested } from './index';

/** A command of each kind of option, as the lab's commands declare theirs. */
function sample() {
  return cliCommand('sample', { en: 'A sample command.', zh: '一个示例命令。' })
    .addOption(valueOption('--count <n>', { en: 'how many', zh: '数量' }, wholeNumber(1, 16)).default(3).env('SAMPLE_COUNT'))
    .addOption(valueOption('--names <list>', { en: 'which ones', zh: '哪几个' }, repeatable(commaList(['a', 'b', 'c'])), { en: 'all of them', zh: '全部' }))
    .addOption(plainOption('--strict', { en: 'be strict', zh: '严格' }));
}

function helpOf(argv: string[] = ['--help']): string {
  try {
    parseCommand(sample(), argv);
  } catch (error) {
    if (error instanceof HelpRequested) return error.text.replace(/\s+/g, ' ');
    throw error;
  }
  throw new Error('no help');
}

function withLocale<T>(locale: string, body: () => T): T {
  const saved = process.env.LC_ALL;
  process.env.LC_ALL = locale;
  try {
    return body();
  } finally {
    if (saved === undefined) delete process.env.LC_ALL;
    else process.env.LC_ALL = saved;
  }
}

describe('the value rules', () => {
  const parse = <T>(rule: { parse: (raw: string, previous: T | undefined) => T }, raw: string, previous?: T) => rule.parse(raw, previous);

  it('a whole number: decimal digits only, within its bounds', () => {
    expect(parse(wholeNumber(0, 60), '60')).toBe(60);
    for (const raw of ['', ' 10', '1e3', '0x10', '2.5', '61', '-1']) expect(() => parse(wholeNumber(0, 60), raw)).toThrow('It must be a whole number from 0 to 60.');
    expect(() => parse(wholeNumber(1), '0')).toThrow('It must be a whole number from 1.');
  });

  it('a comma list: trimmed, never empty, only the valid names; repeated, the lists add up', () => {
    expect(parse(commaList(['a', 'b']), ' a, b ')).toEqual(['a', 'b']);
    expect(() => parse(commaList(['a', 'b']), ' , ')).toThrow('It is empty');
    expect(() => parse(commaList(['a', 'b']), 'a,z')).toThrow('Unknown z; valid: a, b.');
    expect(parse(repeatable(commaList(['a', 'b'])), 'b', ['a'])).toEqual(['a', 'b']);
  });

  it('a list of whole numbers: each within bounds, none twice', () => {
    expect(parse(wholeNumberList(1, 16), '1, 2,4')).toEqual([1, 2, 4]);
    expect(() => parse(wholeNumberList(1, 16), '1,17')).toThrow('It must be a comma list of distinct whole numbers from 1 to 16.');
    expect(() => parse(wholeNumberList(1, 16), '2,2')).toThrow('It names a number twice.');
  });

  it('an http(s) URL', () => {
    expect(parse(httpUrl, 'https://lab.example.org:8443')).toBe('https://lab.example.org:8443');
    for (const raw of ['localhost:8080', 'ftp://127.0.0.1', 'http://']) expect(() => parse(httpUrl, raw)).toThrow('It must be an http(s) URL');
  });
});

describe('parseCommand', () => {
  it('returns the values, a default, an env variable standing for an option, a repeated list', () => {
    expect(parseCommand(sample(), [])).toEqual({ count: 3 });
    expect(parseCommand(sample(), ['--names', 'a', '--names', 'c,b', '--strict'])).toEqual({ count: 3, names: ['a', 'c', 'b'], strict: true });
    process.env.SAMPLE_COUNT = '16';
    try {
      expect(parseCommand(sample(), []).count).toBe(16);
      process.env.SAMPLE_COUNT = '17';
      expect(() => parseCommand(sample(), [])).toThrow(new UsageError("option '--count <n>' value '17' from env 'SAMPLE_COUNT' is invalid. It must be a whole number from 1 to 16."));
    } finally {
      delete process.env.SAMPLE_COUNT;
    }
  });

  it.each([
    [['--count', '0'], "option '--count <n>' argument '0' is invalid. It must be a whole number from 1 to 16."],
    [['--cuont', '2'], "unknown option '--cuont' (Did you mean --count?)"],
    [['--count'], "option '--count <n>' argument missing"],
    [['extra'], "too many arguments. Expected 0 arguments but got 1."],
  ])('refuses %j with one line', (argv, message) => {
    expect(() => parseCommand(sample(), argv)).toThrow(new UsageError(message));
  });

  it('answers --help with the description and each option, what it takes and its default', () => {
    expect(helpOf()).toBe(
      'Usage: sample [options] A sample command. Options: --count <n> how many: whole number from 1 to 16 (default: 3, env: SAMPLE_COUNT) ' +
        '--names <list> which ones: comma list of a, b, c; the option may be repeated (default: all of them) --strict be strict -h, --help show this help and exit ',
    );
  });
});

describe('in a Chinese locale', () => {
  it('reads the language from LC_ALL, LC_MESSAGES or LANG', () => {
    expect(cliLanguage({ LANG: 'zh_CN.UTF-8' })).toBe('zh');
    expect(cliLanguage({ LC_ALL: 'C.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(cliLanguage({ LC_MESSAGES: 'zh_TW' })).toBe('zh');
    expect(cliLanguage({})).toBe('en');
  });

  it('says the help and the rules in Chinese, option names and values as they are', () => {
    withLocale('zh_CN.UTF-8', () => {
      expect(helpOf()).toBe(
        '用法： sample [options] 一个示例命令。 选项： --count <n> 数量：1 到 16 之间的整数 (默认：3, 环境变量：SAMPLE_COUNT) ' +
          '--names <list> 哪几个：逗号分隔的列表，取自 a, b, c；此选项可重复给出 (默认：全部) --strict 严格 -h, --help 显示本帮助并退出 ',
      );
      expect(() => parseCommand(sample(), ['--count', '17'])).toThrow(new UsageError("option '--count <n>' argument '17' is invalid. 应为：1 到 16 之间的整数。"));
    });
  });
});
