import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import {
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import { isStrategyName } from '@oversell/contracts';
import { AppShell } from './AppShell';
import { FollowOffer } from './components/FollowOffer';
import { paramsFromLabSearch, validateLabSearch } from './lib/lab-search';
import { DEFAULT_FORM_VALUES, formFromParams, type RunFormValues } from './lib/run-form';
import { CompareView } from './views/CompareView';
import { ExplainView } from './views/ExplainView';
import { FollowView } from './views/FollowView';
import { GlossaryView } from './views/GlossaryView';
import { HistoryView } from './views/HistoryView';
import { LabView } from './views/LabView';
import { LessonsView } from './views/LessonsView';
import { PitfallsView } from './views/PitfallsView';

interface RunSettings {
  values: RunFormValues;
  setValues: (values: RunFormValues) => void;
}

// One set of run settings for the whole session: the lab runs it, the compare view's "run all" reuses it.
const RunSettingsContext = createContext<RunSettings | null>(null);

function RunSettingsProvider({ children }: { children: ReactNode }) {
  const [values, setValues] = useState<RunFormValues>(DEFAULT_FORM_VALUES);
  return <RunSettingsContext.Provider value={{ values, setValues }}>{children}</RunSettingsContext.Provider>;
}

function useRunSettings(): RunSettings {
  return useContext(RunSettingsContext)!;
}

const rootRoute = createRootRoute({
  component: () => (
    <RunSettingsProvider>
      <AppShell>
        <Outlet />
      </AppShell>
    </RunSettingsProvider>
  ),
});

/**
 * One route for `#/lab` and `#/lab/<id>`: starting a run changes the id without remounting the form.
 * `?strategy=…&initialStock=…` (a lesson's link) fills the form with those settings.
 */
const labRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/lab/{-$runId}',
  validateSearch: validateLabSearch,
  component: function LabRoute() {
    const { runId } = labRoute.useParams();
    const search = labRoute.useSearch();
    const { values, setValues } = useRunSettings();
    // Filled once per address: what the reader types after that is theirs.
    const given = JSON.stringify(search);
    useEffect(() => {
      const params = paramsFromLabSearch(JSON.parse(given));
      const filled = params && formFromParams(params, DEFAULT_FORM_VALUES);
      if (filled) setValues(filled);
    }, [given, setValues]);
    return (
      <>
        {runId === undefined && <FollowOffer />}
        <LabView runId={runId} values={values} onValuesChange={setValues} />
      </>
    );
  },
});

const storedRunRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/runs/$runId',
  component: function StoredRunRoute() {
    const { runId } = storedRunRoute.useParams();
    const { values, setValues } = useRunSettings();
    return <LabView runId={runId} readOnly values={values} onValuesChange={setValues} />;
  },
});

const historyRoute = createRoute({ getParentRoute: () => rootRoute, path: '/runs', component: HistoryView });

const compareRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/compare',
  component: function CompareRoute() {
    return <CompareView values={useRunSettings().values} />;
  },
});

/** `#/explain/<strategy>` opens the Explain view at that strategy's section. */
const explainRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/explain/{-$strategy}',
  component: function ExplainRoute() {
    const { strategy } = explainRoute.useParams();
    return <ExplainView strategy={isStrategyName(strategy) ? strategy : undefined} />;
  },
});

const glossaryRoute = createRoute({ getParentRoute: () => rootRoute, path: '/glossary', component: GlossaryView });

/** A pitfall preset and, once queued, the runs of its sides in the preset's order, comma-separated. */
const pitfallsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/pitfalls/{-$preset}/{-$runIds}',
  component: function PitfallsRoute() {
    const { preset, runIds } = pitfallsRoute.useParams();
    // Keyed by preset: a preset's queuing error is its own.
    return <PitfallsView key={preset} presetName={preset} runIds={runIds?.split(',')} />;
  },
});

/**
 * The course: `#/lessons` lists it, `#/lessons/<id>` opens a lesson, and once it ran, its sides' runs,
 * comma-separated. `?presenter=1` is presenter mode, kept in the address so a reload stays in it.
 */
const lessonsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/lessons/{-$lessonId}/{-$runIds}',
  validateSearch: (search: Record<string, unknown>): { presenter?: 1 } => (search.presenter === 1 || search.presenter === '1' ? { presenter: 1 } : {}),
  component: function LessonsRoute() {
    const { lessonId, runIds } = lessonsRoute.useParams();
    const { presenter } = lessonsRoute.useSearch();
    return <LessonsView lessonId={lessonId} runIds={runIds?.split(',')} presenter={presenter === 1} />;
  },
});

/** The presenter's lesson, live and read-only, for the room. */
const followRoute = createRoute({ getParentRoute: () => rootRoute, path: '/follow', component: FollowView });

// `#/history` is what a reader types for the History tab; its address has been `#/runs`.
const historyAliasRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/history',
  beforeLoad: () => {
    throw redirect({ to: '/runs', replace: true });
  },
});

// Any other address lands on the lab, as before.
const fallbackRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/lab/{-$runId}', params: { runId: undefined }, replace: true });
  },
});

const routeTree = rootRoute.addChildren([
  labRoute,
  storedRunRoute,
  historyRoute,
  compareRoute,
  explainRoute,
  glossaryRoute,
  pitfallsRoute,
  lessonsRoute,
  followRoute,
  historyAliasRoute,
  fallbackRoute,
]);

/**
 * The page's hash as the router's history. An anchor from before the router, `#strategy-<name>`, is not an
 * address the history can read (no leading slash): it becomes that strategy's Explain address first.
 */
function pageHistory(): RouterHistory {
  const anchored = /^#strategy-(.+)$/.exec(window.location.hash)?.[1];
  if (isStrategyName(anchored)) window.history.replaceState(null, '', `#/explain/${anchored}`);
  return createHashHistory();
}

/**
 * The dashboard's views, addressed by the URL's hash (`#/lab/<id>`, `#/runs/<id>`, …) so the gateway
 * serves one page and a reload or a shared link keeps the view. Tests pass a memory history.
 */
export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    history: history ?? pageHistory(),
    // The pitfall sides' run ids stay readable in the address: `r1,r2`, not `r1%2Cr2`.
    pathParamsAllowedCharacters: [','],
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
