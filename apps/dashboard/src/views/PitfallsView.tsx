import { useState } from 'react';
import { findPitfallPreset, PITFALL_PRESETS, pitfallRunParams, type PitfallPreset, type PitfallSide } from '@oversell/contracts';
import { useStartRuns } from '../api/queries';
import { PitfallSidePanel } from '../components/PitfallSidePanel';
import { ServiceError } from '../components/ServiceError';
import { routeHref } from '../lib/routes';

interface PitfallsViewProps {
  /** The preset picked, from the URL. */
  presetName?: string;
  /** Its sides' runs once queued, in the preset's order, from the URL (a reload keeps watching them). */
  runIds?: string[];
}

function describeSettings(preset: PitfallPreset): string {
  const { settings } = preset.sides[0];
  const { load } = settings;
  return [
    `stock ${settings.initialStock}`,
    settings.lockTtlMs !== undefined && `lock TTL ${settings.lockTtlMs} ms`,
    settings.businessDelayMs !== undefined && `business delay ${settings.businessDelayMs} ms`,
    settings.segments !== undefined && `${settings.segments} segments (segmented)`,
    `${load.connections} connections`,
    load.durationSec !== undefined ? `${load.durationSec} s` : `${load.totalRequests} requests`,
    ...(settings.faults ?? []).map((f) => `fault: ${f.kind}${f.at ? ` at ${f.at}` : ''}${f.durationMs ? ` for ${f.durationMs} ms` : ''}`),
  ]
    .filter(Boolean)
    .join(' · ');
}

const sideName = (side: PitfallSide) => `the ${side.role} side (${side.label})`;

/**
 * A documented pitfall on demand: its broken side and its fix, run one after the other under the same
 * load and fault, side by side. Mount with key={presetName}: a preset's queuing error is its own.
 */
export function PitfallsView({ presetName, runIds = [] }: PitfallsViewProps) {
  const preset = presetName ? findPitfallPreset(presetName) : undefined;
  const startRuns = useStartRuns();
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
      { onSuccess: ({ runs }) => window.location.assign(routeHref({ view: 'pitfalls', preset: chosen.name, runIds: [...kept, ...runs.map((r) => r.id)] })) },
    );
  };

  return (
    <div className="view pitfalls" data-testid="pitfalls-view">
      <section className="panel">
        <h2>Pitfalls</h2>
        <p>Each documented pitfall of a hand-made lock, with its fix beside it under the same load and the same fault.</p>
        <div className="run-all-controls">
          <div className="field">
            <label htmlFor="pitfall-preset">Pitfall</label>
            <select
              id="pitfall-preset"
              data-testid="pitfall-preset"
              value={preset?.name ?? ''}
              onChange={(e) => window.location.assign(routeHref({ view: 'pitfalls', preset: e.target.value || undefined }))}
            >
              <option value="">Pick a pitfall…</option>
              {PITFALL_PRESETS.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.title}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button button--primary" data-testid="run-pitfall" disabled={!preset || startRuns.isPending} onClick={() => preset && run(preset)}>
            {startRuns.isPending ? 'Queuing…' : partial ? `Queue ${missing.map((side) => `the ${side.role} side`).join(' and ')}` : 'Run both sides'}
          </button>
        </div>
        {presetName && !preset && <p className="notice notice--error">There is no pitfall preset named {presetName}.</p>}
        {startRuns.error && <ServiceError error={startRuns.error} action="queue the runs" />}
        {started?.refused && (
          <>
            <p role="status" data-testid="pitfall-queued">
              {started.runs.map((queued, index) => (
                <span key={queued.id}>
                  Queued {sideName(sent[index])} as run <a href={routeHref({ view: 'run', runId: queued.id })}>{queued.id}</a>.{' '}
                </span>
              ))}
            </p>
            <ServiceError error={started.refused.error} action={`queue ${sideName(sent[started.refused.index])}`} />
          </>
        )}
      </section>

      {preset && (
        <section className="panel pitfall-explanation" data-testid="pitfall-explanation">
          <h3>{preset.title}</h3>
          <dl>
            <dt>What happens</dt>
            <dd>{preset.explanation.whatHappens}</dd>
            <dt>At which step</dt>
            <dd>{preset.explanation.atWhichStep}</dd>
            <dt>Why the fix holds</dt>
            <dd>{preset.explanation.whyTheFixHolds}</dd>
          </dl>
          <p className="run-meta">Both sides: {describeSettings(preset)}</p>
        </section>
      )}

      {preset && runIds.length > 0 && (
        <div className="pitfall-sides">
          {preset.sides.map((side, index) =>
            runIds[index] ? (
              <PitfallSidePanel key={runIds[index]} preset={preset} side={side} runId={runIds[index]} />
            ) : (
              <p key={side.label} className="panel empty" data-testid={`pitfall-side-${side.role}`}>
                Not queued: {sideName(side)}. The button above queues it beside the run already queued.
              </p>
            ),
          )}
        </div>
      )}
    </div>
  );
}
