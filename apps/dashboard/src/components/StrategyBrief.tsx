import { useTranslation } from 'react-i18next';
import { LOCK_SERVICES, type StrategyDescription } from '@oversell/contracts';
import { useStrategyTexts } from '../i18n/strategy-texts';

/**
 * What a strategy promises, where it breaks, and how to make it break on stage: its catalogue texts
 * (description, guarantee, pitfall, reproduce) in the page's language, with the labels around them.
 */
export function StrategyBrief({ strategy }: { strategy: StrategyDescription }) {
  const { t } = useTranslation();
  const { description, guarantee, pitfall, reproduce } = useStrategyTexts()(strategy.name);
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
      <p>{description}</p>
      <dl className="brief">
        <dt>{t('brief.guarantee')}</dt>
        <dd>{guarantee}</dd>
        <dt>{t('brief.pitfall')}</dt>
        <dd>{pitfall}</dd>
        <dt>{t('brief.reproduce')}</dt>
        <dd>{reproduce}</dd>
      </dl>
    </div>
  );
}
