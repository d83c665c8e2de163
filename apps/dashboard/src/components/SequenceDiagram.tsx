import { useEffect, useId, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunView, SequenceStep } from '@oversell/contracts';
import { loadModelTrace, modelTraceName } from '../lib/model-traces';
import { sequenceDiagramText } from '../lib/sequence-diagram';
import { traceReading } from '../lib/trace-reading';

/**
 * Mermaid text drawn as SVG. Mermaid is imported when a diagram is first shown, so it stays out of the
 * main bundle; strict security: a value in the text cannot become markup.
 */
function MermaidDiagram({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const id = `sequence-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [drawn, setDrawn] = useState<{ svg?: string; error?: string }>({});
  useEffect(() => {
    let current = true;
    import('mermaid')
      .then(async ({ default: mermaid }) => {
        // Drawn at its own width (the stylesheet lets it shrink to a legible floor, then scroll sideways), with
        // narrower lifelines and margins than Mermaid's default and no second row of names at the foot.
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: 'neutral',
          sequence: { useMaxWidth: false, width: 96, actorMargin: 12, diagramMarginX: 8, mirrorActors: false },
        });
        const { svg } = await mermaid.render(id, text);
        if (current) setDrawn({ svg });
      })
      .catch((error: unknown) => current && setDrawn({ error: error instanceof Error ? error.message : String(error) }));
    return () => {
      current = false;
    };
  }, [id, text]);
  if (drawn.error) return <p className="empty">{t('sequence.failed', { message: drawn.error })}</p>;
  if (!drawn.svg) return <p className="empty">{t('sequence.drawing')}</p>;
  return <figure className="sequence-diagram" style={legibleFloor(drawn.svg)} aria-label={label} data-testid="sequence-diagram" dangerouslySetInnerHTML={{ __html: drawn.svg }} />;
}

/** A diagram shrinks with its box to this share of its own width, its text (16 px) still above 11 px; below, its box scrolls. */
const LEGIBLE_SCALE = 0.7;

/** The narrowest the diagram may be drawn, from the own width Mermaid gave its viewBox. */
function legibleFloor(svg: string): CSSProperties {
  const own = Number(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/.exec(svg)?.[1]);
  return Number.isFinite(own) ? ({ '--legible-width': `${Math.ceil(own * LEGIBLE_SCALE)}px` } as CSSProperties) : {};
}

/** The model checker's interleaving for the run's lock, beside the run's own, where one is checked in. */
function ModelDiagram({ run }: { run: RunView }) {
  const { t } = useTranslation();
  const name = modelTraceName(run.params.strategy, run.params.faults?.map((f) => f.kind) ?? []);
  const [steps, setSteps] = useState<SequenceStep[]>();
  useEffect(() => {
    let current = true;
    void loadModelTrace(name ?? '')?.then((loaded) => current && setSteps(loaded));
    return () => {
      current = false;
    };
  }, [name]);
  if (!name || !steps) return null;
  return (
    <div className="sequence-model" data-testid="model-sequence">
      <h4>{t('sequence.modelTitle', { name })}</h4>
      <p className="run-meta">{t('sequence.modelReading')}</p>
      <MermaidDiagram text={sequenceDiagramText(steps, t)} label={t('sequence.modelTitle', { name })} />
    </div>
  );
}

/** A finished run's pitfall step by step (RunResult.trace), with a reading, and its model's beside it; nothing for a run without one. */
export function RunTraceDiagram({ run }: { run: RunView | undefined }) {
  const { t } = useTranslation();
  const trace = run?.result?.trace;
  if (!run || !trace) return null;
  const { title, reading } = traceReading(trace, t);
  return (
    <section className="panel sequence" data-testid="run-trace" aria-label={title}>
      <h3>{title}</h3>
      <p>{reading}</p>
      <div className="sequence-pair">
        <MermaidDiagram text={sequenceDiagramText(trace.steps, t, trace.orders)} label={title} />
        <ModelDiagram run={run} />
      </div>
    </section>
  );
}
