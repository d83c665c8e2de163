import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from '@tanstack/react-router';
import { faultSettingsProblems, type FaultSettingsProblem, type RunView } from '@oversell/contracts';
import { useStartRun, useScenarios, useStoredRun, useStrategies } from '../api/queries';
import { RunForm } from '../components/RunForm';
import { RunPanel } from '../components/RunPanel';
import { ServiceError } from '../components/ServiceError';
import { StrategyBrief } from '../components/StrategyBrief';
import { fieldProblems, visibleFields, type FieldProblem, type FormField } from '../lib/form-errors';
import { formFromParams, splitsStock, toRunParams, type RunFormValues } from '../lib/run-form';

interface LabViewProps {
  /** The run being watched, from the URL. */
  runId?: string;
  /** A stored run opened from the history: its charts without the form. */
  readOnly?: boolean;
  values: RunFormValues;
  onValuesChange: (values: RunFormValues) => void;
}

export function LabView({ runId, readOnly = false, values, onValuesChange }: LabViewProps) {
  const { t } = useTranslation();
  const strategies = useStrategies();
  const scenarios = useScenarios();
  const startRun = useStartRun();
  const storedRun = useStoredRun(runId);
  const navigate = useNavigate();
  const selected = strategies.data?.find((s) => s.name === values.strategy);
  // The service's own fault rules, checked before sending; its 400s are still shown as they come.
  const [faultProblems, setFaultProblems] = useState<FaultSettingsProblem[]>([]);
  const [problems, setProblems] = useState<Partial<Record<FormField, FieldProblem>>>({});
  // The run this page started, so its panel is brought into view and its settings, already the form's, are not reloaded.
  const startedHere = useRef<string | undefined>(undefined);
  const settingsLoadedFor = useRef<string | undefined>(undefined);
  const runArea = useRef<HTMLDivElement>(null);

  const start = (from: RunFormValues) => {
    const strategy = strategies.data?.find((s) => s.name === from.strategy);
    const checked = fieldProblems(from, visibleFields(from, splitsStock(strategy)));
    const params = toRunParams(from, strategy);
    const faults = faultSettingsProblems(params.faults);
    setProblems(checked);
    setFaultProblems(faults);
    if (Object.keys(checked).length > 0 || faults.length > 0) return;
    startRun.mutate(params, {
      onSuccess: (run) => {
        startedHere.current = run.id;
        // The run's id goes in the URL, so a reload keeps watching it.
        void navigate({ to: '/lab/{-$runId}', params: { runId: run.id } });
      },
    });
  };

  const runAgain = (run: RunView) => {
    const again = formFromParams(run.params, values);
    if (!again) return;
    onValuesChange(again);
    start(again);
  };

  // A run opened by its link brings its own settings into the form, once: after that the form is the presenter's.
  useEffect(() => {
    const run = storedRun.data;
    if (!run || run.id === startedHere.current || run.id === settingsLoadedFor.current) return;
    settingsLoadedFor.current = run.id;
    const loaded = formFromParams(run.params, values);
    if (loaded) onValuesChange(loaded);
  }, [storedRun.data, values, onValuesChange]);

  // The form's foot is where "Start run" was clicked; the live headline is at the top of the run's panel.
  useEffect(() => {
    if (runId !== undefined && runId === startedHere.current) runArea.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [runId]);

  const runPanel = runId ? (
    <RunPanel key={runId} runId={runId} onRunAgain={runAgain} runningAgain={startRun.isPending} />
  ) : (
    <p className="empty placeholder" data-testid="no-run">
      {t('lab.noRun')}
    </p>
  );

  if (readOnly) {
    return (
      <div className="view" data-testid="stored-run-view">
        <p>
          <Link to="/runs">{t('lab.allRuns')}</Link>
        </p>
        {startRun.error && <ServiceError error={startRun.error} action={t('errors.action.startRun')} />}
        {runPanel}
      </div>
    );
  }

  return (
    <div className="view lab" data-testid="lab-view">
      {strategies.error && (
        <ServiceError error={strategies.error} action={t('errors.action.loadStrategies')} onRetry={() => void strategies.refetch()} />
      )}
      <div className={`lab-layout${runId ? ' lab-layout--watching' : ''}`}>
        <aside className="panel lab-controls">
          <h2>{t('lab.newRun')}</h2>
          <RunForm
            values={values}
            onChange={(next) => {
              startRun.reset();
              setFaultProblems([]);
              setProblems({});
              onValuesChange(next);
            }}
            onSubmit={() => start(values)}
            strategies={strategies.data}
            scenarios={scenarios.data}
            submitting={startRun.isPending}
            error={startRun.error}
            faultProblems={faultProblems}
            problems={problems}
          />
          {selected && <StrategyBrief strategy={selected} />}
        </aside>
        <div className="lab-run" ref={runArea}>
          {runPanel}
        </div>
      </div>
    </div>
  );
}
