import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_WRITES, STRATEGY_NAMES, type FaultSettingsProblem, type OrderWrite, type Scenario, type StrategyDescription, type StrategyName } from '@oversell/contracts';
import { useStrategyTexts } from '../i18n/strategy-texts';
import { useLocale } from '../i18n/use-locale';
import { fieldBounds, formErrors, visibleFields, type FieldProblem, type FormField, type NumberFormField } from '../lib/form-errors';
import { formFromScenario, splitsStock, type LoadBound, type RunFormValues } from '../lib/run-form';
import { FaultFields } from './FaultFields';
import { NumberField } from './NumberField';

interface RunFormProps {
  values: RunFormValues;
  onChange: (values: RunFormValues) => void;
  onSubmit: () => void;
  strategies: StrategyDescription[] | undefined;
  scenarios: Scenario[] | undefined;
  submitting: boolean;
  /** The last submission's failure; a 400's messages are shown next to their fields. */
  error: Error | null;
  /** What the fault rules found wrong before sending, shown next to the fault fields. */
  faultProblems?: readonly FaultSettingsProblem[];
  /** What the fields' own rules found wrong before sending (fieldProblems), one per field. */
  problems?: Partial<Record<FormField, FieldProblem>>;
}

export function RunForm({ values, onChange, onSubmit, strategies, scenarios, submitting, error, faultProblems = [], problems = {} }: RunFormProps) {
  const { t } = useTranslation();
  const texts = useStrategyTexts();
  const locale = useLocale();
  const segmented = splitsStock(strategies?.find((s) => s.name === values.strategy));
  const errors = formErrors(error, visibleFields(values, segmented), locale, values.faults.length, faultProblems);
  // One message per field: what the form found before sending, else the service's first word on it.
  const message = (name: FormField) => {
    const problem = problems[name];
    if (!problem) return errors.byField[name];
    return problem.kind === 'range' ? t('form.problem.range', { min: problem.min, max: problem.max }) : t(`form.problem.${problem.kind}`);
  };
  // Editing a field means the values no longer are the scenario's.
  const set = (patch: Partial<RunFormValues>) => onChange({ ...values, ...patch, scenario: undefined });
  const number = (name: NumberFormField) => ({
    name,
    value: values[name],
    error: message(name),
    onChange: (value: string) => set({ [name]: value }),
    ...fieldBounds(name),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  const pickScenario = (name: string) => {
    const scenario = scenarios?.find((s) => s.name === name);
    if (scenario) onChange(formFromScenario(scenario, values));
  };

  return (
    // noValidate: the form checks its fields itself (one message each) and shows the service's messages beside them.
    <form className="run-form" onSubmit={submit} noValidate data-testid="run-form" aria-label={t('form.label')}>
      <div className="field">
        <label htmlFor="scenario">{t('form.scenario')}</label>
        <select
          id="scenario"
          data-testid="scenario-select"
          value={values.scenario ?? ''}
          disabled={!scenarios?.length}
          onChange={(e) => pickScenario(e.target.value)}
        >
          <option value="">{scenarios?.length ? t('form.customSettings') : t('form.noScenarios')}</option>
          {scenarios?.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
        {values.scenario && (
          <small className="field-hint">{scenarios?.find((s) => s.name === values.scenario)?.description}</small>
        )}
      </div>

      <div className={`field${errors.byField.strategy ? ' field--invalid' : ''}`}>
        <label htmlFor="field-strategy">{t('form.strategy')}</label>
        <select
          id="field-strategy"
          data-testid="field-strategy"
          value={values.strategy}
          onChange={(e) => set({ strategy: e.target.value as StrategyName })}
        >
          {(strategies?.map((s) => s.name) ?? STRATEGY_NAMES).map((name) => (
            <option key={name} value={name}>
              {texts(name).title}
            </option>
          ))}
        </select>
        {errors.byField.strategy && <small className="field-error">{errors.byField.strategy}</small>}
      </div>

      <fieldset>
        <legend>{t('form.stockAndLock')}</legend>
        <NumberField {...number('initialStock')} label={t('form.initialStock')} />
        <NumberField {...number('lockTtlMs')} label={t('form.lockTtl')} />
        <NumberField {...number('businessDelayMs')} label={t('form.businessDelay')} hint={t('form.businessDelayHint')} />
        {segmented && <NumberField {...number('segments')} label={t('form.segments')} />}
        <div className={`field${errors.byField.orderWrite ? ' field--invalid' : ''}`}>
          <label htmlFor="field-orderWrite">{t('form.ordersWritten')}</label>
          <select id="field-orderWrite" data-testid="field-orderWrite" value={values.orderWrite} onChange={(e) => set({ orderWrite: e.target.value as OrderWrite })}>
            {ORDER_WRITES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`form.orderWrite.${mode}`)}
              </option>
            ))}
          </select>
          {errors.byField.orderWrite && <small className="field-error">{errors.byField.orderWrite}</small>}
        </div>
      </fieldset>

      <fieldset>
        <legend>{t('form.load')}</legend>
        <NumberField {...number('connections')} label={t('form.connections')} />
        <fieldset className="radio-row">
          <legend>{t('form.stopAfter')}</legend>
          {(['duration', 'requests'] as LoadBound[]).map((bound) => (
            <label key={bound}>
              <input
                type="radio"
                name="bound"
                value={bound}
                data-testid={`bound-${bound}`}
                checked={values.bound === bound}
                onChange={() => set({ bound })}
              />{' '}
              {t(`form.bound.${bound}`)}
            </label>
          ))}
        </fieldset>
        {values.bound === 'duration' ? (
          <NumberField {...number('durationSec')} label={t('form.durationSec')} />
        ) : (
          <NumberField {...number('totalRequests')} label={t('form.totalRequests')} />
        )}
        <NumberField {...number('arrivalRate')} label={t('form.arrivalRate')} hint={t('form.arrivalRateHint')} />
      </fieldset>

      <FaultFields faults={values.faults} onChange={(faults) => set({ faults })} errors={errors.byFault} />

      {errors.general && (
        <p className="notice notice--error" role="alert" data-testid="run-form-error">
          {errors.general}
        </p>
      )}
      <div className="run-form-submit">
        <button type="submit" className="button button--primary" data-testid="start-run" disabled={submitting}>
          {submitting ? t('form.starting') : t('form.start')}
        </button>
      </div>
    </form>
  );
}
