import { useTranslation } from 'react-i18next';
import type { ChoosingALock } from '@oversell/contracts';
import { useStrategies } from '../api/queries';
import { ChoosingALockTables } from '../components/ChoosingALockTables';
import { ServiceError } from '../components/ServiceError';
import { StrategyBrief } from '../components/StrategyBrief';
// Written by `npm run choosing-a-lock` from the bench, lock-bench and pitfalls reports.
import choosingALock from '../generated/choosing-a-lock.json';

/**
 * Which lock to choose, with the lab's figures; then per strategy: what it does for one order, the script it
 * sends, and where its behaviour shows. The strategies' texts (title, steps, symptom) are the service's, in English.
 */
export function ExplainView() {
  const { t } = useTranslation();
  const strategies = useStrategies();
  if (strategies.error) {
    return <ServiceError error={strategies.error} action={t('errors.action.loadStrategies')} onRetry={() => void strategies.refetch()} />;
  }
  if (!strategies.data) return <p className="empty">{t('common.loadingStrategies')}</p>;

  return (
    <div className="view explain" data-testid="explain-view">
      <ChoosingALockTables data={choosingALock as ChoosingALock} />
      {strategies.data.map((strategy) => (
        <article key={strategy.name} id={`strategy-${strategy.name}`} className="panel" data-testid={`explain-${strategy.name}`}>
          <h2>
            {strategy.title} <code className="strategy-name">{strategy.name}</code>
          </h2>
          <StrategyBrief strategy={strategy} />
          <h3>{t('explain.stepByStep')}</h3>
          <ol className="steps">
            {strategy.steps.map((step, i) => (
              <li key={i}>{step}</li>
            ))}
          </ol>
          {strategy.scripts.map((script) => (
            <section key={script.name}>
              <h3>
                {script.name} <span className="tag">{script.language.toUpperCase()}</span>
              </h3>
              <pre className="script">
                <code className={`language-${script.language}`}>{script.source}</code>
              </pre>
            </section>
          ))}
          <h3>{t('explain.onTheDashboard')}</h3>
          <p className="symptom">{strategy.symptom}</p>
        </article>
      ))}
    </div>
  );
}
