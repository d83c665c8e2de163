import { useTranslation } from 'react-i18next';
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

/** The frequencies a fault can fire at; a kind offers those it reads, `once` always. */
const FREQUENCIES: readonly FaultFrequency[] = ['once', 'every', 'probability'];

/** The instance field's hint: a clock offset and a crash read it differently from "empty: every instance". */
function instanceHint(kind: FaultKind) {
  return kind === 'clock-offset' || kind === 'crash' ? (`faults.instanceHint.${kind}` as const) : 'faults.instanceHint.any';
}

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
  const { t } = useTranslation();
  const update = (index: number, patch: Partial<FaultFormValues>) => onChange(faults.map((f, i) => (i === index ? { ...f, ...patch } : f)));

  return (
    <fieldset className="fault-fields" data-testid="fault-fields">
      <legend>{t('faults.legend')}</legend>
      {faults.length === 0 && <p className="field-hint">{t('faults.none')}</p>}
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
            <legend>{t('faults.fault', { n: index + 1 })}</legend>
            <SelectField
              id={id('kind')}
              label={t('faults.kind')}
              value={fault.kind}
              options={FAULT_KINDS}
              hint={t(`faults.kindHint.${fault.kind}`)}
              error={errorOf('kind')}
              onChange={(kind) => update(index, { kind })}
            />
            {reads.has('at') && (
              <SelectField id={id('at')} label={t('faults.at')} value={fault.at} options={FAULT_POINT_NAMES} error={errorOf('at')} onChange={(at) => update(index, { at })} />
            )}
            {reads.has('once') && (
              <>
                <fieldset className="radio-row">
                  <legend>{t('faults.howOften')}</legend>
                  {FREQUENCIES.filter((frequency) => frequency === 'once' || reads.has(frequency)).map((frequency) => (
                    <label key={frequency}>
                      <input
                        type="radio"
                        name={id('frequency')}
                        value={frequency}
                        data-testid={id(`frequency-${frequency}`)}
                        checked={shownFrequency(fault) === frequency}
                        onChange={() => update(index, { frequency })}
                      />{' '}
                      {t(`faults.frequency.${frequency}`)}
                    </label>
                  ))}
                </fieldset>
                {errorOf('once') && <small className="field-error">{errorOf('once')}</small>}
                {shownFrequency(fault) === 'every' && <NumberField {...number('every')} label={t('faults.every')} min={1} max={FAULT_LIMITS.maxEvery} />}
                {shownFrequency(fault) === 'probability' && <NumberField {...number('probability')} label={t('faults.probability')} min={0} max={1} />}
              </>
            )}
            {reads.has('durationMs') && <NumberField {...number('durationMs')} label={t('faults.duration')} min={1} max={FAULT_LIMITS.maxDurationMs} />}
            {reads.has('store') && (
              <SelectField
                id={id('store')}
                label={t('faults.store')}
                value={fault.store}
                options={FAULT_STORES}
                hint={t('faults.storeHint')}
                error={errorOf('store')}
                onChange={(store) => update(index, { store })}
              />
            )}
            {reads.has('offsetMs') && (
              <NumberField
                {...number('offsetMs')}
                label={t(fault.kind === 'clock-jump' ? 'faults.jump' : 'faults.offset')}
                min={fault.kind === 'clock-jump' ? 1 : -FAULT_LIMITS.maxClockOffsetMs}
                max={FAULT_LIMITS.maxClockOffsetMs}
              />
            )}
            {reads.has('instance') && (
              <NumberField
                {...number('instance')}
                label={t('faults.instance')}
                hint={t(instanceHint(fault.kind))}
                min={0}
              />
            )}
            {reads.has('copies') && (
              <>
                <NumberField {...number('copies')} label={t('faults.copies')} min={2} max={FAULT_LIMITS.maxCopies} />
                <div className="field">
                  <label>
                    <input
                      type="checkbox"
                      data-testid={id('idempotencyKey')}
                      checked={fault.idempotencyKey}
                      onChange={(e) => update(index, { idempotencyKey: e.target.checked })}
                    />{' '}
                    {t('faults.idempotencyKey')}
                  </label>
                </div>
              </>
            )}
            <button type="button" className="button" data-testid={id('remove')} onClick={() => onChange(faults.filter((_, i) => i !== index))}>
              {t('faults.remove', { n: index + 1 })}
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
        {t('faults.add')}
      </button>
    </fieldset>
  );
}
