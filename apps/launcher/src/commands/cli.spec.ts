import { PITFALL_PRESETS, RUN_LIMITS } from '@oversell/contracts';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { UsageError, type Command } from '@oversell/cli';
import { benchCommand, parseBenchArgs } from './bench';
import { parseScalingArgs } from './bench-scaling';
import { choosingALockCommand, parseChoosingALockArgs } from './choosing-a-lock';
import { demoCommand, parseDemoArgs } from './demo';
import { parsePitfallsArgs, pitfallsCommand } from './pitfalls';
import { parseSoakArgs, soakCommand } from './soak';
import { LAUNCHER_DIST } from '../lab/paths';

const COMMANDS: [string, () => Command, string[]][] = [
  [
    'demo',
    demoCommand,
    [
      '--instances <n> order-service instances of the lab it starts: whole number from 1 to 16 (default: 3, env: LAB_INSTANCES)',
      '--port <port> port of the gateway: whole number from 1 to 65535 (default: 8080, env: LAB_PORT)',
      '--base-port <port> port of the first instance, the others after it: whole number from 1 to 65535 less the instances (default: 3001)',
      '(default: "127.0.0.1", env: LAB_HOST)',
      '(default: "", env: LAB_PUBLIC_HOST)',
      '--sentinels',
    ],
  ],
  [
    'bench',
    benchCommand,
    [
      '--scenario <name> scenario in loadtests/scenarios (choices: "ceiling", "compare",',
      'default: "compare")',
      '--strategies <list> the strategies to run: comma list of no-lock,',
      'whole number from 1 to 16, or a comma list of distinct whole numbers from 1 to 16',
      `--duration <s> seconds of load per strategy: whole number from 1 to ${RUN_LIMITS.maxDurationSec} (default: the scenario's)`,
      `--connections <n> concurrent connections: whole number from 1 to ${RUN_LIMITS.maxConnections} (default: the scenario's)`,
      `--stock <n> units of the product: whole number from 0 to ${RUN_LIMITS.maxStock} (default: the scenario's)`,
      `--units <n> another name for --stock, for a long sale: whole number from 0 to ${RUN_LIMITS.maxStock}`,
      '--order-write <list> each strategy once per way of writing its orders, side by side: comma list of sync, queued, stream (default: sync)',
      '--url <base> use a lab that is already running instead of starting one: http(s) URL such as http://127.0.0.1:8080 (default: start a lab)',
      '--out <dir> folder the reports are written to (default: bench-results/)',
    ],
  ],
  [
    'pitfalls',
    pitfallsCommand,
    [
      `--preset <list> the presets to run: comma list of ${PITFALL_PRESETS.map((preset) => preset.name).join(', ')}; the option may be repeated (default: all of them)`,
      '--repeat <n> repetitions of each preset: whole number from 1 to 1000 (default: 1)',
      '--instances <n> order-service instances of the lab it starts: whole number from 1 to 16 (default: 2)',
      '--strict',
      '--url <base>',
      '--out <dir>',
    ],
  ],
  [
    'soak',
    soakCommand,
    [
      '--minutes <n> minutes of load in all: whole number from 1 to 600 (default: 10)',
      `--connections <n> concurrent connections: whole number from 1 to ${RUN_LIMITS.maxConnections} (default: 500)`,
      '--warmup-seconds <n> seconds of discarded load per strategy before minute 0: whole number from 0 to 60 (default: 3)',
      `--stock <n> units of the product: whole number from 1 to ${RUN_LIMITS.maxStock} (default: 100000)`,
      '--instances <n> order-service instances of the lab it starts: whole number from 1 to 16 (default: 3)',
      '(default: every safe strategy)',
      '--out <dir>',
    ],
  ],
  [
    'choosing-a-lock',
    choosingALockCommand,
    [
      '--bench <file> bench report: path (default: bench-results/latest.json)',
      '--locks <file> lock bench report: path (default: bench-results/locks-latest.json)',
      '--pitfalls <file> pitfalls report: path (default: the newest bench-results/pitfalls-<stamp>.json)',
      '--doc <file> the markdown written: path (default: docs/choosing-a-lock.md)',
      '--json <file> the JSON written: path (default: apps/dashboard/src/generated/choosing-a-lock.json)',
    ],
  ],
];

describe.each(COMMANDS)('%s --help', (name, command, lines) => {
  it('says what the command does and lists every option with what it takes and its default', () => {
    // On one line: commander wraps the help to the terminal's width.
    const help = command().helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(new RegExp(`^Usage: ${name} \\[options\\] \\S`));
    for (const line of lines) expect(help).toContain(line);
    expect(help).toContain('-h, --help show this help and exit');
  });

  it('gives every option that takes a value its default in the help', () => {
    const cmd = command();
    const help = cmd.createHelp();
    const values = cmd.options.filter((option) => option.required);
    expect(values.length).toBeGreaterThan(0);
    for (const option of values) expect(`${option.flags} ${help.optionDescription(option)}`).toMatch(/ default: |\(default: /);
  });
});

describe('a bad command line: one line naming the option and what it takes, before anything starts', () => {
  const scaling = (args: string[]) => parseScalingArgs(args, parseBenchArgs);
  it.each<[string, string[], string, (args: string[]) => unknown]>([
    ['demo', ['--port', '0'], "option '--port <port>' argument '0' is invalid. It must be a whole number from 1 to 65535.", parseDemoArgs],
    ['demo', ['--instances', '4', '--base-port', '65532'], "option '--base-port <port>' argument '65532' is invalid. With 4 instances it must be a whole number from 1 to 65531.", parseDemoArgs],
    ['bench', ['--connections', '2001'], `option '--connections <n>' argument '2001' is invalid. It must be a whole number from 1 to ${RUN_LIMITS.maxConnections}.`, parseBenchArgs],
    ['bench', ['--strategy', 'watchdog'], "unknown option '--strategy' (Did you mean --strategies?)", parseBenchArgs],
    ['bench (scaling)', ['--instances', '1,17'], "option '--instances <n>' argument '1,17' is invalid. It must be a comma list of distinct whole numbers from 1 to 16.", scaling],
    ['bench (scaling)', ['--instances', '1,2', '--duration', '601'], `option '--duration <s>' argument '601' is invalid. It must be a whole number from 1 to ${RUN_LIMITS.maxDurationSec}.`, scaling],
    ['pitfalls', ['--instances', '17'], "option '--instances <n>' argument '17' is invalid. It must be a whole number from 1 to 16.", parsePitfallsArgs],
    ['pitfalls', ['--repeat'], "option '--repeat <n>' argument missing", parsePitfallsArgs],
    ['soak', ['--stock', '0'], `option '--stock <n>' argument '0' is invalid. It must be a whole number from 1 to ${RUN_LIMITS.maxStock}.`, parseSoakArgs],
    ['soak', ['--minutes', 'ten'], "option '--minutes <n>' argument 'ten' is invalid. It must be a whole number from 1 to 600.", parseSoakArgs],
    ['choosing-a-lock', ['--docs', 'x.md'], "unknown option '--docs' (Did you mean --doc?)", parseChoosingALockArgs],
    ['choosing-a-lock', ['--bench'], "option '--bench <file>' argument missing", parseChoosingALockArgs],
  ])('%s %j', (_name, args, message, parse) => {
    let thrown: unknown;
    try {
      parse(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).message).toBe(message);
  });

  it('reads an environment variable standing for an option the same way, naming it', () => {
    const saved = process.env.LAB_INSTANCES;
    process.env.LAB_INSTANCES = '0';
    try {
      expect(() => parseDemoArgs([])).toThrow(new UsageError("option '--instances <n>' value '0' from env 'LAB_INSTANCES' is invalid. It must be a whole number from 1 to 16."));
      process.env.LAB_INSTANCES = '5';
      expect(parseDemoArgs([]).instances).toBe(5);
      expect(parseDemoArgs(['--instances', '2']).instances).toBe(2);
    } finally {
      if (saved === undefined) delete process.env.LAB_INSTANCES;
      else process.env.LAB_INSTANCES = saved;
    }
  });
});

/** The built commands as `npm run …` runs them (the test target builds the launcher first). */
describe('the built commands', () => {
  const run = (command: string, args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [join(LAUNCHER_DIST, 'commands', `${command}.js`), ...args], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
    });

  it.each(['demo', 'bench', 'pitfalls', 'soak', 'choosing-a-lock', 'aof-kill'])('%s answers --help on stdout with exit 0', async (command) => {
    const result = await run(command, ['--help']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^Usage: ${command} \\[options\\]`));
  });

  it.each([
    ['demo', ['--instances', '17'], "usage: option '--instances <n>' argument '17' is invalid. It must be a whole number from 1 to 16. (--help lists the options)"],
    ['bench', ['--speed', '3'], "usage: unknown option '--speed' (--help lists the options)"],
    ['bench', ['--instances', '2,2'], "usage: option '--instances <n>' argument '2,2' is invalid. It names a number twice. (--help lists the options)"],
    ['pitfalls', ['--preset', 'nope'], `usage: option '--preset <list>' argument 'nope' is invalid. Unknown nope; valid: ${PITFALL_PRESETS.map((preset) => preset.name).join(', ')}. (--help lists the options)`],
    ['soak', ['--url', 'http://127.0.0.1:8080'], "usage: unknown option '--url' (--help lists the options)"],
    ['choosing-a-lock', ['--bench', '/nonexistent/bench.json'], 'usage: no such report: /nonexistent/bench.json (--help lists the options)'],
    ['aof-kill', ['--modes', 'everysec'], "usage: unknown option '--modes' (--help lists the options)"],
  ])('%s %j exits 2 with one line on stderr, having started nothing', async (command, args, line) => {
    const result = await run(command, args as string[]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});
