import { describe, expect, it } from 'vitest';
import { SCENARIOS, strategy } from '../test/fixtures';
import { NOOP_TARGET, type RunParams } from '@oversell/contracts';
import { DEFAULT_FORM_VALUES, formFromParams, formFromScenario, scenarioToBatchRequest, toBatchRequest, toRunParams } from './run-form';

describe('run form', () => {
  it('turns the form into run params, leaving out empty optional fields and segments of other strategies', () => {
    const params = toRunParams({ ...DEFAULT_FORM_VALUES, initialStock: '50', arrivalRate: '', segments: '8' }, strategy());
    expect(params).toEqual({
      strategy: 'no-lock',
      initialStock: 50,
      lockTtlMs: 2000,
      businessDelayMs: 0,
      segments: undefined,
      load: { connections: 50, arrivalRate: undefined, durationSec: 10 },
      scenario: undefined,
    });
    const segmented = strategy({ name: 'segmented', settings: ['lockTtlMs', 'businessDelayMs', 'segments'] });
    expect(toRunParams({ ...DEFAULT_FORM_VALUES, strategy: 'segmented', segments: '8' }, segmented).segments).toBe(8);
  });

  it('sends orderWrite only when the run queues its orders', () => {
    expect(toRunParams(DEFAULT_FORM_VALUES, strategy())).not.toHaveProperty('orderWrite');
    expect(toRunParams({ ...DEFAULT_FORM_VALUES, orderWrite: 'queued' }, strategy()).orderWrite).toBe('queued');
    expect(toBatchRequest({ ...DEFAULT_FORM_VALUES, orderWrite: 'queued' }).orderWrite).toBe('queued');
  });

  it('sends the bound that is selected, not both', () => {
    const load = toRunParams({ ...DEFAULT_FORM_VALUES, bound: 'requests', totalRequests: '300' }, strategy()).load;
    expect(load.totalRequests).toBe(300);
    expect(load.durationSec).toBeUndefined();
  });

  it('fills the form from a scenario and names it', () => {
    const values = formFromScenario(SCENARIOS[0], DEFAULT_FORM_VALUES);
    expect(values).toMatchObject({
      strategy: 'naive-setnx',
      initialStock: '20',
      lockTtlMs: '100',
      businessDelayMs: '150',
      connections: '200',
      bound: 'requests',
      totalRequests: '5000',
      scenario: 'flash-sale',
    });
    expect(toRunParams(values, strategy()).scenario).toBe('flash-sale');
  });

  it('builds a batch from the form (with segments) or from a scenario', () => {
    expect(toBatchRequest(DEFAULT_FORM_VALUES)).toMatchObject({ initialStock: 100, segments: 5 });
    expect(toBatchRequest(DEFAULT_FORM_VALUES)).not.toHaveProperty('strategy');
    expect(scenarioToBatchRequest(SCENARIOS[0])).toEqual({
      initialStock: 20,
      lockTtlMs: 100,
      businessDelayMs: 150,
      segments: undefined,
      load: { connections: 200, totalRequests: 5000 },
      scenario: 'flash-sale',
    });
  });

  it('takes a scenario\'s faults into the form and its batch, and sends them back as written', () => {
    const faults = [
      { kind: 'store-cut', at: 'stock-written', durationMs: 1500, store: 'mysql', instance: 0 },
      { kind: 'pause', at: 'stock-read', every: 4, durationMs: 300 },
      { kind: 'double-click', copies: 3, idempotencyKey: false },
    ] as const;
    const scenario = { ...SCENARIOS[0], faults: [...faults] };
    const values = formFromScenario(scenario, { ...DEFAULT_FORM_VALUES, faults: [] });
    expect(values.faults.map((fault) => fault.kind)).toEqual(['store-cut', 'pause', 'double-click']);
    expect(toRunParams(values, strategy()).faults).toEqual([{ ...faults[0], once: true }, faults[1], faults[2]]);
    expect(scenarioToBatchRequest(scenario).faults).toEqual(faults);
    // A scenario without faults leaves the presenter's.
    const kept = formFromScenario(SCENARIOS[0], values);
    expect(kept.faults).toBe(values.faults);
  });
  it("fills the form from a stored run's own settings, so starting it runs the same settings again", () => {
    const params: RunParams = {
      strategy: 'segmented',
      initialStock: 5,
      lockTtlMs: 100,
      businessDelayMs: 250,
      segments: 3,
      orderWrite: 'queued',
      scenario: 'expiry-pitfall',
      load: { connections: 20, totalRequests: 400, arrivalRate: 50 },
      faults: [{ kind: 'pause', at: 'lock-acquired', every: 4, durationMs: 300 }],
    };
    const form = formFromParams(params, { ...DEFAULT_FORM_VALUES, faults: [] });
    expect(form).toMatchObject({ strategy: 'segmented', initialStock: '5', segments: '3', orderWrite: 'queued', bound: 'requests', totalRequests: '400', arrivalRate: '50' });
    const segmented = strategy({ name: 'segmented', settings: ['lockTtlMs', 'businessDelayMs', 'segments'] });
    expect(JSON.parse(JSON.stringify(toRunParams(form!, segmented)))).toEqual(params);
  });

  it('leaves no faults of the form on a stored run that had none, and does not fill it from a no-op run', () => {
    const withFault = formFromScenario({ ...SCENARIOS[0], faults: [{ kind: 'crash', at: 'lock-acquired' }] }, DEFAULT_FORM_VALUES);
    expect(formFromParams({ strategy: 'no-lock', initialStock: 10, load: { connections: 1, durationSec: 2 } }, withFault)?.faults).toEqual([]);
    expect(formFromParams({ strategy: NOOP_TARGET, initialStock: 0, load: { connections: 1 } }, DEFAULT_FORM_VALUES)).toBeUndefined();
  });
});
