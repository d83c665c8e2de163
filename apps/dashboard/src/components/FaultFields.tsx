import { FAULT_KINDS, FAULT_LIMITS, FAULT_POINT_NAMES, FAULT_STORES, faultFieldsOf, type FaultKind, type FaultSettings } from '@oversell/contracts';
import { faultField } from '../lib/form-errors';
import { DEFAULT_FAULT, shownFrequency, type FaultFormValues, type FaultFrequency } from '../lib/fault-form';
import { NumberField } from './NumberField';

interface FaultFieldsProps {
  faults: FaultFormValues[];
  onChange: (faults: FaultFormValues[]) => void;
  /** Messages by request field (`faults[i].name`): found before sending, or the service's 400. */
  errors: Record<string, string>;
}

const KIND_HINTS: Record<FaultKind, string> = {
  crash: 'the instance process dies at the fault point; the launcher restarts it',
  pause: 'an async delay at the fault point',
  'stop-the-world': "the whole event loop blocked (the watchdog's timers too), like a long GC pause",
  'clock-offset': "one instance's clock shifted for the whole run (locks that compare timestamps)",
  'store-cut': 'the store unreachable from the instance for a while',
  'double-click': 'the load tool sends each order several times at once',
  failover: "the locks' Redis master dies before the lock key replicates; Sentinel promotes the replica (once; instances started with REDIS_SENTINELS)",
  'node-restart': "a RedLock node holding the lock restarts without its data, after a stranger's grant kept the holder to three nodes (once; instances with REDLOCK_NODES)",
};

/** The instance field's hint where a kind reads it differently from "empty: every instance". */
const INSTANCE_HINTS: Partial<Record<FaultKind, string>> = {
  'clock-offset': '0 = the lowest port; a clock offset names one instance',
  crash: 'empty: every instance but the one running the run, which is never crashed (start at least 2); 0 = the lowest port',
};

const FREQUENCIES: [FaultFrequency, string][] = [
  ['once', 'once'],
  ['every', 'every Nth time'],
  ['probability', 'with a probability'],
];

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  hint?: string;
  error?: string;
}

/** A labelled choice among names, with its hint and the message about it. */
function SelectField<T extends string>({ id, label, value, options, onChange, hint, error }: SelectFieldProps<T>) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} data-testid={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {hint && <small className="field-hint">{hint}</small>}
      {error && (
        <small className="field-error" data-testid={`${id}-error`}>
          {error}
        </small>
      )}
    </div>
  );
}

/** The lab form's faults: add and remove them; each shows only the fields its kind reads. */
export function FaultFields({ faults, onChange, errors }: FaultFieldsProps) {
  const update = (index: number, patch: Partial<FaultFormValues>) => onChange(faults.map((f, i) => (i === index ? { ...f, ...patch } : f)));

  return (
    <fieldset className="fault-fields" data-testid="fault-fields">
      <legend>Faults</legend>
      {faults.length === 0 && <p className="field-hint">None: the run goes undisturbed.</p>}
      {faults.map((fault, index) => {
        const reads = new Set(faultFieldsOf(fault.kind));
        const id = (name: string) => `fault-${index}-${name}`;
        const errorOf = (name: keyof FaultSettings) => errors[faultField(index, name)];
        const number = (name: 'every' | 'probability' | 'durationMs' | 'offsetMs' | 'instance' | 'copies') => ({
          name: id(name),
          value: fault[name],
          error: errorOf(name),
          onChange: (value: string) => update(index, { [name]: value }),
        });
        return (
          <fieldset key={index} className="fault" data-testid={`fault-${index}`}>
            <legend>Fault {index + 1}</legend>
            <SelectField
              id={id('kind')}
              label="Kind"
              value={fault.kind}
              options={FAULT_KINDS}
              hint={KIND_HINTS[fault.kind]}
              error={errorOf('kind')}
              onChange={(kind) => update(index, { kind })}
            />
            {reads.has('at') && (
              <SelectField id={id('at')} label="Fault point" value={fault.at} options={FAULT_POINT_NAMES} error={errorOf('at')} onChange={(at) => update(index, { at })} />
            )}
            {reads.has('once') && (
              <>
                <fieldset className="radio-row">
                  <legend>How often</legend>
                  {FREQUENCIES.filter(([frequency]) => frequency === 'once' || reads.has(frequency)).map(([frequency, label]) => (
                    <label key={frequency}>
                      <input
                        type="radio"
                        name={id('frequency')}
                        value={frequency}
                        data-testid={id(`frequency-${frequency}`)}
                        checked={shownFrequency(fault) === frequency}
                        onChange={() => update(index, { frequency })}
                      />{' '}
                      {label}
                    </label>
                  ))}
                </fieldset>
                {errorOf('once') && <small className="field-error">{errorOf('once')}</small>}
                {shownFrequency(fault) === 'every' && <NumberField {...number('every')} label="Every Nth passage (all instances)" min={1} max={FAULT_LIMITS.maxEvery} />}
                {shownFrequency(fault) === 'probability' && <NumberField {...number('probability')} label="Probability (0 … 1)" min={0} max={1} />}
              </>
            )}
            {reads.has('durationMs') && <NumberField {...number('durationMs')} label="Duration (ms)" min={1} max={FAULT_LIMITS.maxDurationMs} />}
            {reads.has('store') && (
              <SelectField
                id={id('store')}
                label="Store cut off"
                value={fault.store}
                options={FAULT_STORES}
                hint="redis: the stock keys and the locks; mysql: the stock rows, the MySQL locks and every order write"
                error={errorOf('store')}
                onChange={(store) => update(index, { store })}
              />
            )}
            {reads.has('offsetMs') && (
              <NumberField {...number('offsetMs')} label="Clock offset (± ms)" min={-FAULT_LIMITS.maxClockOffsetMs} max={FAULT_LIMITS.maxClockOffsetMs} />
            )}
            {reads.has('instance') && (
              <NumberField
                {...number('instance')}
                label="Instance index"
                hint={INSTANCE_HINTS[fault.kind] ?? 'empty: every instance; 0 = the lowest port'}
                min={0}
              />
            )}
            {reads.has('copies') && (
              <>
                <NumberField {...number('copies')} label="Copies of each order" min={2} max={FAULT_LIMITS.maxCopies} />
                <div className="field">
                  <label>
                    <input
                      type="checkbox"
                      data-testid={id('idempotencyKey')}
                      checked={fault.idempotencyKey}
                      onChange={(e) => update(index, { idempotencyKey: e.target.checked })}
                    />{' '}
                    Copies carry one idempotency key
                  </label>
                </div>
              </>
            )}
            <button type="button" className="button" data-testid={id('remove')} onClick={() => onChange(faults.filter((_, i) => i !== index))}>
              Remove fault {index + 1}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="button"
        data-testid="add-fault"
        disabled={faults.length >= FAULT_LIMITS.maxFaultsPerRun}
        onClick={() => onChange([...faults, DEFAULT_FAULT])}
      >
        Add a fault
      </button>
    </fieldset>
  );
}
