import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, type LinkProps } from '@tanstack/react-router';
import { LanguageSwitch } from './components/LanguageSwitch';

const TABS: { label: 'lessons' | 'lab' | 'compare' | 'pitfalls' | 'explain' | 'history' | 'glossary'; link: LinkProps }[] = [
  { label: 'lessons', link: { to: '/lessons/{-$lessonId}/{-$runIds}', params: { lessonId: undefined, runIds: undefined } } },
  { label: 'lab', link: { to: '/lab/{-$runId}', params: { runId: undefined } } },
  { label: 'compare', link: { to: '/compare' } },
  { label: 'pitfalls', link: { to: '/pitfalls/{-$preset}/{-$runIds}', params: { preset: undefined, runIds: undefined } } },
  { label: 'explain', link: { to: '/explain/{-$strategy}', params: { strategy: undefined } } },
  // Active on a stored run too (`#/runs/<id>`): the router marks a tab active under its path.
  { label: 'history', link: { to: '/runs' } },
  { label: 'glossary', link: { to: '/glossary' } },
];

/** The header with the views' tabs (the router marks the current one with aria-current) around the current view. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <header className="app-header">
        <h1>
          <Link to="/lab/{-$runId}" params={{ runId: undefined }}>
            {t('app.title')}
          </Link>
        </h1>
        <nav aria-label={t('app.views')}>
          <ul className="tabs">
            {TABS.map((tab) => (
              <li key={tab.label}>
                <Link {...tab.link} className="tab" data-testid={`nav-${tab.label}`}>
                  {t(`nav.${tab.label}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageSwitch />
      </header>
      <main>{children}</main>
    </>
  );
}
