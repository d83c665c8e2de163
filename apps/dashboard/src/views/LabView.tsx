import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from '@tanstack/react-router';
import { faultSettingsProblems, type FaultSettingsProblem } from '@oversell/contracts';
import { useStartRun, useScenarios, useStrategies } from '../api/queries';
import { RunForm } from '../components/RunForm';
import { RunPanel } from '../components/RunPanel';
import { ServiceError } from '../components/ServiceError';
import { StrategyBrief } from '../components/StrategyBrief';
import { toRunParams, type RunFormValues } from '../lib/run-form';

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
  const navigate = useNavigate();
  const selected = strategies.data?.find((s) => s.name === values.strategy);
  // The service's own fault rules, checked before sending; its 400s are still shown as they come.
  const [faultProblems, setFaultProblems] = useState<FaultSettingsProblem[]>([]);

  const start = () => {
    const params = toRunParams(values, selected);
    const problems = faultSettingsProblems(params.faults);
    setFaultProblems(problems);
    if (problems.length > 0) return;
    startRun.mutate(params, {
      // The run's id goes in the URL, so a reload keeps watching it.
      onSuccess: (run) => void navigate({ to: '/lab/{-$runId}', params: { runId: run.id } }),
    });
  };

  const runPanel = runId ? (
    <RunPanel key={runId} runId={runId} />
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
              onValuesChange(next);
            }}
            onSubmit={start}
            strategies={strategies.data}
            scenarios={scenarios.data}
            submitting={startRun.isPending}
            error={startRun.error}
            faultProblems={faultProblems}
          />
          {selected && <StrategyBrief strategy={selected} />}
        </aside>
        <div className="lab-run">{runPanel}</div>
      </div>
    </div>
  );
}
