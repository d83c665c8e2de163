import { LOCK_SERVICES, type StrategyDescription } from '@oversell/contracts';

/** What a strategy promises, where it breaks, and how to make it break on stage. */
export function StrategyBrief({ strategy }: { strategy: StrategyDescription }) {
  return (
    <div className="strategy-brief" data-testid="strategy-brief">
      <p className="tags">
        <span className={`tag ${strategy.safe ? 'tag--safe' : 'tag--unsafe'}`}>{strategy.safe ? 'safe' : 'oversells'}</span>
        <span className="tag">{strategy.kind}</span>
        <span className="tag">{strategy.store}</span>
        {strategy.needs?.map((service) => (
          <span key={service} className="tag" title={`${LOCK_SERVICES[service].env}; npm run demo starts it`}>
            needs {LOCK_SERVICES[service].title}
          </span>
        ))}
        {strategy.grantRate === 'slow' && (
          <span className="tag" title="under contention the lock passes to the next order only a few times a second: its waiters retry instead of queueing">
            slow hand-over
          </span>
        )}
      </p>
      <p>{strategy.description}</p>
      <dl className="brief">
        <dt>Guarantee</dt>
        <dd>{strategy.guarantee}</dd>
        <dt>Pitfall</dt>
        <dd>{strategy.pitfall}</dd>
        <dt>Reproduce</dt>
        <dd>{strategy.reproduce}</dd>
      </dl>
    </div>
  );
}
