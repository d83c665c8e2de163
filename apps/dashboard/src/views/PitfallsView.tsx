import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from '@tanstack/react-router';
import { findPitfallPreset, PITFALL_PRESETS, pitfallRunParams, type PitfallPreset, type PitfallSide } from '@oversell/contracts';
import { useStartRuns } from '../api/queries';
import { PitfallExplanation } from '../components/PitfallExplanation';
import { PitfallSidePanel } from '../components/PitfallSidePanel';
import { ServiceError } from '../components/ServiceError';
import { useLocale } from '../i18n/use-locale';
import { describePresetSettings } from '../lib/run-description';

interface PitfallsViewProps {
  /** The preset picked, from the URL. */
  presetName?: string;
  /** Its sides' runs once queued, in the preset's order, from the URL (a reload keeps watching them). */
  runIds?: string[];
}

/**
 * A documented pitfall on demand: its broken side and its fix, run one after the other under the same
 * load and fault, side by side. Mount with key={presetName}: a preset's queuing error is its own.
 */
export function PitfallsView({ presetName, runIds = [] }: PitfallsViewProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const sideRole = (side: PitfallSide) => t(`pitfalls.role.${side.role}`);
  const sideName = (side: PitfallSide) => t('pitfalls.sideName', { role: sideRole(side), label: side.label[locale] });
  const preset = presetName ? findPitfallPreset(presetName) : undefined;
  const startRuns = useStartRuns();
  const navigate = useNavigate();
  // The sides of the last request, to say which of them were queued.
  const [sent, setSent] = useState<PitfallSide[]>([]);
  // Sides the URL has no run for (one was refused): queued beside the runs already there, never a second broken side.
  const missing = preset?.sides.slice(runIds.length) ?? [];
  const partial = missing.length > 0 && runIds.length > 0;
  const started = startRuns.data;

  const run = (chosen: PitfallPreset) => {
    const sides = partial ? missing : chosen.sides;
    const kept = partial ? runIds : [];
    setSent(sides);
    startRuns.mutate(
      sides.map((side) => pitfallRunParams(side, chosen.name)),
      { onSuccess: ({ runs }) => void navigate({ to: '/pitfalls/{-$preset}/{-$runIds}', params: { preset: chosen.name, runIds: [...kept, ...runs.map((r) => r.id)].join(',') } }) },
    );
  };

  return (
    <div className="view pitfalls" data-testid="pitfalls-view">
      <section className="panel">
        <h2>{t('pitfalls.title')}</h2>
        <p>{t('pitfalls.intro')}</p>
        <div className="run-all-controls">
          <div className="field">
            <label htmlFor="pitfall-preset">{t('pitfalls.pitfall')}</label>
            <select
              id="pitfall-preset"
              data-testid="pitfall-preset"
              value={preset?.name ?? ''}
              onChange={(e) => void navigate({ to: '/pitfalls/{-$preset}/{-$runIds}', params: { preset: e.target.value || undefined, runIds: undefined } })}
            >
              <option value="">{t('pitfalls.pick')}</option>
              {PITFALL_PRESETS.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.title[locale]}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button button--primary" data-testid="run-pitfall" disabled={!preset || startRuns.isPending} onClick={() => preset && run(preset)}>
            {startRuns.isPending ? t('common.queuing') : partial ? t('pitfalls.queue', { sides: missing.map(sideRole).join(t('common.and')) }) : t('pitfalls.runBoth')}
          </button>
        </div>
        {presetName && !preset && <p className="notice notice--error">{t('pitfalls.noPreset', { name: presetName })}</p>}
        {startRuns.error && <ServiceError error={startRuns.error} action={t('errors.action.queueRuns')} />}
        {started?.refused && (
          <>
            <p role="status" data-testid="pitfall-queued">
              {started.runs.map((queued, index) => (
                <span key={queued.id}>
                  <Trans
                    i18nKey="pitfalls.queued"
                    values={{ side: sideName(sent[index]), id: queued.id }}
                    components={{ run: <Link to="/runs/$runId" params={{ runId: queued.id }} /> }}
                  />{' '}
                </span>
              ))}
            </p>
            <ServiceError error={started.refused.error} action={t('errors.action.queueSide', { side: sideName(sent[started.refused.index]) })} />
          </>
        )}
      </section>

      {preset && (
        <section className="panel pitfall-explanation" data-testid="pitfall-explanation">
          <h3>{preset.title[locale]}</h3>
          <PitfallExplanation explanation={preset.explanation} />
          <p className="run-meta">{t('pitfalls.bothSides', { settings: describePresetSettings(preset.sides[0].settings, t) })}</p>
        </section>
      )}

      {preset && runIds.length > 0 && (
        <div className="pitfall-sides">
          {preset.sides.map((side, index) =>
            runIds[index] ? (
              <PitfallSidePanel key={runIds[index]} preset={preset} side={side} runId={runIds[index]} />
            ) : (
              <p key={side.label.en} className="panel empty" data-testid={`pitfall-side-${side.role}`}>
                {t('pitfalls.notQueued', { side: sideName(side) })}
              </p>
            ),
          )}
        </div>
      )}
    </div>
  );
}
