import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listScenarios, loadScenario, SCENARIOS_DIR, UnknownScenarioError } from './scenarios';
import { InvalidFieldError } from './validation';

const valid = {
  name: 'tmp',
  description: 'a test scenario',
  initialStock: 10,
  load: { connections: 2, durationSec: 1 },
};

function scenarioDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'oversell-scenarios-'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, `${name}.json`), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

function loadError(content: unknown): InvalidFieldError {
  const dir = scenarioDir({ tmp: content });
  try {
    loadScenario('tmp', dir);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect((error as Error).message).toContain(join(dir, 'tmp.json'));
    return error as InvalidFieldError;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('scenario files in loadtests/scenarios', () => {
  it('include the ones the tools and docs rely on', () => {
    expect(listScenarios()).toEqual(expect.arrayContaining(['ceiling', 'compare', 'expiry-pitfall', 'flash-sale', 'smoke', 'store-cut-lock-lost']));
  });

  it.each(listScenarios(SCENARIOS_DIR))('%s passes validation', (name) => {
    expect(loadScenario(name).name).toBe(name);
  });

  it('compare and expiry-pitfall carry the figures their purpose needs', () => {
    const compare = loadScenario('compare');
    expect(compare).toMatchObject({ initialStock: 1000, lockTtlMs: 2000, businessDelayMs: 0, load: { connections: 500 } });
    expect(compare.strategy).toBeUndefined();
    const pitfall = loadScenario('expiry-pitfall');
    expect(pitfall).toMatchObject({ initialStock: 100, lockTtlMs: 100, businessDelayMs: 250, load: { connections: 60 } });
    // Built to queue orders behind one lock for seconds: no latency bound for k6 to fail by design.
    expect(pitfall.orderP99Ms).toBeUndefined();
    expect(compare.orderP99Ms).toBe(2000);
  });
});

describe('loadScenario', () => {
  it('reads a valid file', () => {
    expect(loadScenario('tmp', scenarioDir({ tmp: valid }))).toMatchObject({ initialStock: 10, load: { connections: 2, durationSec: 1 } });
  });

  it('names the file and field when a value is out of range', () => {
    const error = loadError({ ...valid, load: { connections: 0, durationSec: 1 } });
    expect(error.field).toBe('load.connections');
    expect(error.message).toMatch(/load\.connections must be an integer at least 1/);
  });

  it('takes an order latency bound in whole ms, above 0', () => {
    expect(loadScenario('tmp', scenarioDir({ tmp: { ...valid, orderP99Ms: 1500 } })).orderP99Ms).toBe(1500);
    expect(loadError({ ...valid, orderP99Ms: 0 }).field).toBe('orderP99Ms');
    expect(loadError({ ...valid, orderP99Ms: '2000' }).field).toBe('orderP99Ms');
  });

  it('requires a bound on the load', () => {
    expect(loadError({ ...valid, load: { connections: 2 } }).field).toBe('load.durationSec');
  });

  it('rejects misspelt fields rather than ignoring them', () => {
    expect(loadError({ ...valid, lockTtl: 100 }).field).toBe('lockTtl');
    expect(loadError({ ...valid, load: { connections: 2, durationSec: 1, rate: 5 } }).field).toBe('load.rate');
  });

  it('rejects an unknown strategy, a missing description and a name that is not the file name', () => {
    expect(loadError({ ...valid, strategy: 'optimistic' }).field).toBe('strategy');
    expect(loadError({ ...valid, description: '' }).field).toBe('description');
    expect(loadError({ ...valid, name: 'other' }).field).toBe('name');
  });

  it('reports malformed JSON against the file', () => {
    expect(loadError('{ "name": ').field).toBe('(file)');
  });

  it('reads faults by the service\'s rules, naming the fault\'s field when one is wrong', () => {
    const faults = [{ kind: 'pause', at: 'stock-read', durationMs: 300, every: 5 }, { kind: 'double-click', copies: 3, idempotencyKey: false }];
    expect(loadScenario('tmp', scenarioDir({ tmp: { ...valid, faults } })).faults).toEqual(faults);
    const error = loadError({ ...valid, faults: [faults[0], { kind: 'pause', at: 'stock-read' }] });
    expect(error.field).toBe('faults[1].durationMs');
    expect(error.message).toContain('faults[1].durationMs is refused: a pause fault needs durationMs');
    expect(loadError({ ...valid, faults: { kind: 'pause' } }).field).toBe('faults');
    expect(loadError({ ...valid, faults: [{ kind: 'meteor' }] }).field).toBe('faults[0].kind');
  });

  it('reads a scenario file given by its path, named after the file', () => {
    const dir = scenarioDir({ mine: { ...valid, name: 'mine' } });
    expect(loadScenario(join(dir, 'mine.json')).name).toBe('mine');
    expect(() => loadScenario(join(dir, 'missing.json'))).toThrow(/missing\.json: \(file\) cannot be read/);
  });

  it('lists the available names for an unknown scenario', () => {
    const dir = scenarioDir({ alpha: { ...valid, name: 'alpha' }, beta: { ...valid, name: 'beta' } });
    expect(() => loadScenario('gamma', dir)).toThrow(new UnknownScenarioError('gamma', ['alpha', 'beta']));
    expect(() => loadScenario('gamma', dir)).toThrow('Available: alpha, beta');
  });
});
