import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouter } from '@tanstack/react-router';
import type { ChoosingALock, StrategyDescription, StrategyKind, StrategyName } from '@oversell/contracts';
import { useLabChoosingALock, useStrategies } from '../api/queries';
import { ChoosingALockTables } from '../components/ChoosingALockTables';
import { ServiceError } from '../components/ServiceError';
import { StrategyBrief } from '../components/StrategyBrief';
import { useStrategyTexts } from '../i18n/strategy-texts';
// Written by `npm run choosing-a-lock` from the bench, lock-bench and pitfalls reports.
import choosingALock from '../generated/choosing-a-lock.json';

/** The contents' groups, in the order the articles take them. */
const KINDS: readonly StrategyKind[] = ['none', 'lock', 'atomic', 'database'];

const sectionId = (name: StrategyName) => `strategy-${name}`;

function scrollToSection(name: StrategyName) {
  document.getElementById(sectionId(name))?.scrollIntoView({ block: 'start' });
}

/**
 * Which lock to choose, with the lab's figures; then per strategy: what it does for one order, the script it
 * sends, and where its behaviour shows. The texts are the catalogue's in the page's language; the scripts are
 * the service's, as it loaded them. `#/explain/<strategy>` opens the view at that strategy's section.
 */
export function ExplainView({ strategy: target }: { strategy?: StrategyName }) {
  const { t } = useTranslation();
  const texts = useStrategyTexts();
  const strategies = useStrategies();
  // This lab's own figures once its benches have run; the recorded ones (dated, labelled) until then.
  const labFigures = useLabChoosingALock();
  const router = useRouter();
  const loaded = strategies.data !== undefined;

  // The sections exist once the strategies have loaded: only then can the address's section be scrolled to.
  // The router puts a new page at the top once it has rendered it, which may come after this effect: scroll
  // again then, once.
  useEffect(() => {
    if (!target || !loaded) return;
    scrollToSection(target);
    const unsubscribe = router.subscribe('onRendered', () => {
      unsubscribe();
      scrollToSection(target);
    });
    return unsubscribe;
  }, [router, target, loaded]);

  if (strategies.error) {
    return <ServiceError error={strategies.error} action={t('errors.action.loadStrategies')} onRetry={() => void strategies.refetch()} />;
  }
  if (!strategies.data) return <p className="empty">{t('common.loadingStrategies')}</p>;
  const groups = KINDS.map((kind) => ({ kind, members: strategies.data.filter((s) => s.kind === kind) })).filter((group) => group.members.length > 0);

  return (
    <div className="view explain" data-testid="explain-view">
      <nav className="panel explain-contents" aria-labelledby="explain-contents" data-testid="explain-contents">
        <h2 id="explain-contents">{t('explain.contents')}</h2>
        {groups.map(({ kind, members }) => (
          <section key={kind}>
            <h3>{t(`explain.kind.${kind}`)}</h3>
            <ul>
              {members.map((strategy) => (
                <li key={strategy.name}>
                  {/* Scrolled by the view, not reset to the top by the router; clicked again, it scrolls again. */}
                  <Link to="/explain/{-$strategy}" params={{ strategy: strategy.name }} resetScroll={false} onClick={() => scrollToSection(strategy.name)}>
                    {texts(strategy.name).title}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
      <div className="explain-body">
        <ChoosingALockTables data={labFigures.data ?? (choosingALock as ChoosingALock)} measuredHere={Boolean(labFigures.data)} />
        {strategies.data.map((strategy) => (
          <StrategySection key={strategy.name} strategy={strategy} />
        ))}
      </div>
    </div>
  );
}

function StrategySection({ strategy }: { strategy: StrategyDescription }) {
  const { t } = useTranslation();
  const { title, steps, symptom } = useStrategyTexts()(strategy.name);
  return (
    <article id={sectionId(strategy.name)} className="panel strategy-section" data-testid={`explain-${strategy.name}`}>
      <h2>
        {title} <code className="strategy-name">{strategy.name}</code>
      </h2>
      <StrategyBrief strategy={strategy} />
      <h3>{t('explain.stepByStep')}</h3>
      <ol className="steps">
        {steps.map((step, i) => (
          <li key={i}>{step}</li>
        ))}
      </ol>
      {strategy.scripts.map((script) => (
        // Collapsed: a section reads as its steps first; the script is one click away.
        <details key={script.name} className="script-block">
          <summary>
            <code>{script.name}</code> <span className="tag">{script.language.toUpperCase()}</span>
          </summary>
          <pre className="script">
            <code className={`language-${script.language}`}>{script.source}</code>
          </pre>
        </details>
      ))}
      <h3>{t('explain.onTheDashboard')}</h3>
      <p className="symptom">{symptom}</p>
    </article>
  );
}
