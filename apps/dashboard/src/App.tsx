import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './components/LanguageSwitch';
import { useHashRoute } from './hooks/useHashRoute';
import { routeHref, type Route } from './lib/routes';
import { DEFAULT_FORM_VALUES, type RunFormValues } from './lib/run-form';
import { CompareView } from './views/CompareView';
import { ExplainView } from './views/ExplainView';
import { GlossaryView } from './views/GlossaryView';
import { HistoryView } from './views/HistoryView';
import { LabView } from './views/LabView';
import { PitfallsView } from './views/PitfallsView';

const TABS: { label: 'lab' | 'compare' | 'pitfalls' | 'explain' | 'history' | 'glossary'; route: Route; active: (route: Route) => boolean }[] = [
  { label: 'lab', route: { view: 'lab' }, active: (r) => r.view === 'lab' },
  { label: 'compare', route: { view: 'compare' }, active: (r) => r.view === 'compare' },
  { label: 'pitfalls', route: { view: 'pitfalls' }, active: (r) => r.view === 'pitfalls' },
  { label: 'explain', route: { view: 'explain' }, active: (r) => r.view === 'explain' },
  { label: 'history', route: { view: 'history' }, active: (r) => r.view === 'history' || r.view === 'run' },
  { label: 'glossary', route: { view: 'glossary' }, active: (r) => r.view === 'glossary' },
];

export function App() {
  const { t } = useTranslation();
  const route = useHashRoute();
  // One set of run settings for the whole session: the lab runs it, the compare view's "run all" reuses it.
  const [values, setValues] = useState<RunFormValues>(DEFAULT_FORM_VALUES);

  return (
    <>
      <header className="app-header">
        <h1>
          <a href={routeHref({ view: 'lab' })}>{t('app.title')}</a>
        </h1>
        <nav aria-label={t('app.views')}>
          <ul className="tabs">
            {TABS.map((tab) => (
              <li key={tab.label}>
                <a
                  href={routeHref(tab.route)}
                  className="tab"
                  data-testid={`nav-${tab.route.view}`}
                  aria-current={tab.active(route) ? 'page' : undefined}
                >
                  {t(`nav.${tab.label}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageSwitch />
      </header>
      <main>
        {route.view === 'lab' && <LabView runId={route.runId} values={values} onValuesChange={setValues} />}
        {route.view === 'run' && <LabView runId={route.runId} readOnly values={values} onValuesChange={setValues} />}
        {route.view === 'compare' && <CompareView values={values} />}
        {route.view === 'explain' && <ExplainView />}
        {route.view === 'history' && <HistoryView />}
        {route.view === 'glossary' && <GlossaryView />}
        {route.view === 'pitfalls' && <PitfallsView key={route.preset} presetName={route.preset} runIds={route.runIds} />}
      </main>
    </>
  );
}
