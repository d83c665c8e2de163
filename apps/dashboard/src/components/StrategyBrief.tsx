import { useTranslation } from 'react-i18next';
import { LOCK_SERVICES, type StrategyDescription } from '@oversell/contracts';

/**
 * What a strategy promises, where it breaks, and how to make it break on stage. Its texts (description,
 * guarantee, pitfall, reproduce) are the service's, in English; the labels around them are translated.
 */
export function StrategyBrief({ strategy }: { strategy: StrategyDescription }) {
  const { t } = useTranslation();
  return (
    <div className="strategy-brief" data-testid="strategy-brief">
      <p className="tags">
        <span className={`tag ${strategy.safe ? 'tag--safe' : 'tag--unsafe'}`}>{strategy.safe ? t('brief.safe') : t('brief.oversells')}</span>
        <span className="tag" data-testid="brief-kind">{t('brief.kind', { kind: t(`brief.kindValue.${strategy.kind}`) })}</span>
        <span className="tag" data-testid="brief-store">{t('brief.store', { store: strategy.store })}</span>
        {strategy.needs?.map((service) => (
          <span key={service} className="tag" title={t('brief.needsTitle', { env: LOCK_SERVICES[service].env })}>
            {t('brief.needs', { service: LOCK_SERVICES[service].title })}
          </span>
        ))}
        {strategy.grantRate === 'slow' && (
          <span className="tag" title={t('brief.slowHandOverTitle')}>
            {t('brief.slowHandOver')}
          </span>
        )}
      </p>
      <p>{strategy.description}</p>
      <dl className="brief">
        <dt>{t('brief.guarantee')}</dt>
        <dd>{strategy.guarantee}</dd>
        <dt>{t('brief.pitfall')}</dt>
        <dd>{strategy.pitfall}</dd>
        <dt>{t('brief.reproduce')}</dt>
        <dd>{strategy.reproduce}</dd>
      </dl>
    </div>
  );
}
