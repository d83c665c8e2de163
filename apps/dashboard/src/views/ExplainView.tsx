import { useStrategies } from '../api/queries';
import { ServiceError } from '../components/ServiceError';
import { StrategyBrief } from '../components/StrategyBrief';

/** Per strategy: what it does for one order, the script it sends, and where its behaviour shows. */
export function ExplainView() {
  const strategies = useStrategies();
  if (strategies.error) {
    return <ServiceError error={strategies.error} action="load the strategies" onRetry={() => void strategies.refetch()} />;
  }
  if (!strategies.data) return <p className="empty">Loading strategies…</p>;

  return (
    <div className="view explain" data-testid="explain-view">
      {strategies.data.map((strategy) => (
        <article key={strategy.name} id={`strategy-${strategy.name}`} className="panel" data-testid={`explain-${strategy.name}`}>
          <h2>
            {strategy.title} <code className="strategy-name">{strategy.name}</code>
          </h2>
          <StrategyBrief strategy={strategy} />
          <h3>Step by step</h3>
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
          <h3>On the dashboard</h3>
          <p className="symptom">{strategy.symptom}</p>
        </article>
      ))}
    </div>
  );
}
