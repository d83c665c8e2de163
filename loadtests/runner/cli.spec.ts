import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from './test-support/build';
import { startFakeOrderService, type FakeOrderService } from './test-support/fake-order-service';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI; stdout is a pipe, so it prints plain progress lines, not a bar. */
function cli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_PATH, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('cli', () => {
  let service: FakeOrderService;
  beforeEach(async () => {
    service = await startFakeOrderService(1);
  });
  afterEach(() => service.close());

  it('resets the product, runs the scenario, and reports the client figures and the server inventory', async () => {
    const jsonPath = join(mkdtempSync(join(tmpdir(), 'oversell-cli-')), 'out.json');
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--strategy', 'segmented', '--product', '42', '--json', jsonPath]);

    expect(result.code).toBe(0);
    expect(service.resets).toEqual([{ stock: 50, strategy: 'segmented', lockTtlMs: 2000, businessDelayMs: 0 }]);
    expect(service.orders.every((order) => order.productId === 42 && order.strategy === 'segmented')).toBe(true);
    // The first tick's elapsed time is the machine's (1.1 s on a loaded one): its shape is the CLI's.
    expect(result.stdout).toMatch(/^\[\d+\.\ds\] \d+ responses, \d+ req\/s/m);
    expect(result.stdout).toContain('sold 50 of 50, remaining 0, orders 50, sold twice 0, oversold 0, stores agree yes');
    const record = JSON.parse(readFileSync(jsonPath, 'utf8'));
    expect(record).toMatchObject({ scenario: 'smoke', target: 'orders', strategy: 'segmented', productId: 42 });
    expect(record.client.statusCounts['201']).toBe(50);
    expect(record.client.requests).toBeGreaterThan(50);
    expect(record.inventory.sold).toBe(50);
  });

  it('skips the reset with --no-reset and drives the no-op endpoint with --target noop', async () => {
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--no-reset', '--target', 'noop']);

    expect(result.code).toBe(0);
    expect(service.resets).toHaveLength(0);
    expect(service.orders).toHaveLength(0);
    expect(service.noops).toBeGreaterThan(0);
    expect(result.stdout).not.toContain('server inventory');
  });

  it('with --no-reset, checks the product can take orders before the load: a product never reset fails at once, sending no order', async () => {
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--strategy', 'segmented', '--no-reset', '--product', '42']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--no-reset: product 42 cannot take orders: GET /api/products/42/inventory answered 404 product_not_found');
    expect(service.orders).toHaveLength(0);
  });

  it('with --no-reset, refuses before the load a product reset for another strategy than the one asked', async () => {
    await fetch(`${service.url}/api/products/42/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stock: 5, strategy: 'uuid-lua' }) });
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--strategy', 'segmented', '--no-reset', '--product', '42']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--no-reset: product 42 was reset for uuid-lua, so every segmented order would be refused (strategy_mismatch): give --strategy uuid-lua');
    expect(service.orders).toHaveLength(0);
  });

  it('with --no-reset, loads a product reset before', async () => {
    await fetch(`${service.url}/api/products/42/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stock: 5, strategy: 'segmented' }) });
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--strategy', 'segmented', '--no-reset', '--product', '42']);
    expect(result.code).toBe(0);
    expect(service.resets).toHaveLength(1);
    expect(result.stdout).toContain('sold 5 of 5');
  });

  it('sends a scenario file\'s faults with the reset, and double-clicks as its double-click fault says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oversell-cli-'));
    const faults = [{ kind: 'pause', at: 'stock-read', durationMs: 5 }, { kind: 'double-click', copies: 3, idempotencyKey: false }];
    const file = join(dir, 'clicks.json');
    writeFileSync(file, JSON.stringify({ name: 'clicks', description: 'd', initialStock: 50, load: { connections: 2, totalRequests: 4 }, faults }));
    const result = await cli(['--scenario', file, '--url', service.url, '--strategy', 'uuid-lua', '--product', '7']);

    expect(result.code).toBe(0);
    expect(service.resets).toEqual([{ stock: 50, strategy: 'uuid-lua', faults }]);
    // 4 clicks, 3 copies each, none keyed.
    expect(service.orders).toHaveLength(12);
    expect(service.orders.some((order) => order.idempotencyKey !== undefined)).toBe(false);
    expect(result.stdout).toContain('faults: {"kind":"pause","at":"stock-read","durationMs":5}');
  });

  it.each([
    [['--double-click'], 2, true],
    [['--double-click=3', '--no-idempotency-key'], 3, false],
  ])('with %j sends each order that many times at once, keyed %s', async (flags, copies, keyed) => {
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--product', '9', ...flags]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`double-click: each order sent ${copies} times at once, ${keyed ? 'with one' : 'without an'} idempotency key`);
    const byKey = new Map<string | undefined, number>();
    for (const order of service.orders) byKey.set(order.idempotencyKey, (byKey.get(order.idempotencyKey) ?? 0) + 1);
    if (keyed) expect(new Set(byKey.values())).toEqual(new Set([copies]));
    else expect([...byKey.keys()]).toEqual([undefined]);
    expect(service.orders.length % copies).toBe(0);
  });

  it('exits 2 naming the fault\'s field when a scenario file\'s fault is wrong, before any reset', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'oversell-cli-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ name: 'bad', description: 'd', initialStock: 5, load: { connections: 1, totalRequests: 1 }, faults: [{ kind: 'store-cut', at: 'stock-read' }] }));
    const result = await cli(['--scenario', file, '--url', service.url, '--strategy', 'watchdog']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('faults[0].durationMs is refused: a store-cut fault needs durationMs');
    expect(service.resets).toHaveLength(0);
  });

  it('exits 2 before any reset when its --json file cannot be written: found out at the end, the run was lost', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'oversell-cli-')), 'a-file');
    writeFileSync(file, '');
    const result = await cli(['--scenario', 'smoke', '--url', service.url, '--strategy', 'segmented', '--json', join(file, 'out.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--json: cannot write ${join(file, 'out.json')} (ENOTDIR)`);
    expect(service.resets).toHaveLength(0);
  });

  it('stops on Ctrl-C, prints what ran, and exits 130: the shell learns the run was cut short', async () => {
    const child = spawn(process.execPath, [CLI_PATH, '--scenario', 'flash-sale', '--url', service.url, '--strategy', 'segmented'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    // Interrupted once the load is going (its first progress line), well inside the scenario's 10 s.
    await new Promise<void>((resolve) => child.stdout.on('data', () => /responses/.test(stdout) && resolve()));
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(130);
    expect(stdout).toContain('server inventory');
  });

  it.each([
    [['--strategy', 'lua-decrement'], '--scenario is required'],
    [['--scenario', 'nope'], 'Unknown scenario "nope". Available: ceiling, compare'],
    [['--scenario', 'compare'], '--strategy is required'],
    [['--scenario', 'smoke', '--strategy', 'fastest'], "option '--strategy <name>' argument 'fastest' is invalid. Allowed choices are no-lock"],
    [['--scenario', 'smoke', '--product', 'abc'], "option '--product <id>' argument 'abc' is invalid. It must be a whole number from 1."],
    [['--scenario', 'smoke', '--target', 'refunds'], "option '--target <t>' argument 'refunds' is invalid. Allowed choices are orders, noop."],
    [['--scenario', 'smoke', '--url', 'localhost:8080'], "option '--url <base>' argument 'localhost:8080' is invalid. It must be an http(s) URL"],
    [['--scenario', 'smoke', '--speed', '3'], "unknown option '--speed'"],
    [['--scenario', 'smoke', '--double-click=1'], "option '--double-click [copies]' argument '1' is invalid. It must be a whole number from 2 to 10."],
    [['--scenario', 'smoke', '--double-click=many'], "option '--double-click [copies]' argument 'many' is invalid. It must be a whole number from 2 to 10."],
    [['--scenario', 'smoke', '--no-idempotency-key'], '--no-idempotency-key needs --double-click'],
    [['--scenario', 'smoke', '--double-click', '--target', 'noop'], '--double-click applies to --target orders only'],
    [['--scenario', 'smoke', '--no-reset'], '--no-reset with --target orders needs --product'],
  ])('exits 2 on %j, naming the argument in one line', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(service.resets).toHaveLength(0);
  });

  it('answers --help on stdout with every option, exit 0, sending nothing', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: load \[options\]/);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('--double-click [copies] send each order that many times at once');
    expect(result.stderr).toBe('');
    expect(service.resets).toHaveLength(0);
  });
});
