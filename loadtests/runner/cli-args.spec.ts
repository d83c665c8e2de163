import { FAULT_LIMITS } from '@oversell/contracts';
import { UsageError } from '@oversell/cli';
import { loadCommand, parseCliArgs } from './cli-args';

/** The help as one line: commander wraps it to the terminal's width. */
const help = () => loadCommand().helpInformation().replace(/\s+/g, ' ');

describe('parseCliArgs', () => {
  it('takes the defaults: one URL, the orders target, a reset', () => {
    expect(parseCliArgs(['--scenario', 'smoke'])).toEqual({ mode: 'run', scenario: 'smoke', urls: ['http://127.0.0.1:8080'], target: 'orders', reset: true, strategy: undefined, productId: undefined, jsonPath: undefined, doubleClick: undefined });
    expect(parseCliArgs(['--scenario', 'smoke', '--url', 'http://a:1', '--url', 'http://b:2'])).toMatchObject({ urls: ['http://a:1', 'http://b:2'] });
    expect(parseCliArgs(['--scenario', 'smoke', '--double-click'])).toMatchObject({ doubleClick: { copies: 2, idempotencyKey: true } });
  });

  it('--help lists every option with its default and bounds', () => {
    const text = help();
    for (const expected of [
      '--scenario <name> scenario in loadtests/scenarios, or a .json file (required); its faults go with the reset, its double-click fault to the load: name or path',
      '--url <base> service base URL: http(s) URL such as http://127.0.0.1:8080; the option may be repeated (default: http://127.0.0.1:8080)',
      '--strategy <name>',
      '"lua-decrement"',
      '--product <id> product to reset and load: whole number from 1 (default: a random fresh one)',
      '--target <t> what the load calls (choices: "orders", "noop", default: "orders")',
      '--no-reset',
      `whole number from 2 to ${FAULT_LIMITS.maxCopies} (preset: "2")`,
      '--no-idempotency-key',
      '--json <file> also write the summary as JSON: path',
      '--ipc',
    ]) expect(text).toContain(expected);
  });

  it.each([
    [['--scenario', 'smoke', '--double-click=11'], `option '--double-click [copies]' argument '11' is invalid. It must be a whole number from 2 to ${FAULT_LIMITS.maxCopies}.`],
    [['--scenario', 'smoke', '--product', '0'], "option '--product <id>' argument '0' is invalid. It must be a whole number from 1."],
    [['--scenario', 'smoke', '--prodcut', '1'], "unknown option '--prodcut' (Did you mean --product?)"],
  ])('refuses %j in one line naming the option', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(new UsageError(message));
  });
});
