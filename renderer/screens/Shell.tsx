// The shell of the signed-in app: the sync indicator always in view, the workspaces (Alt+1 … 5
// switch between them), the user and sign-out.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { DemoServiceSwitch } from '../components/DemoServiceSwitch';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SignOutDialog } from '../components/SignOutDialog';
import { SyncIndicator } from '../components/SyncIndicator';
import { dialogOpen } from '../keyboard';
import { CoursesWorkspace } from './courses/CoursesWorkspace';
import { HoursWorkspace } from './hours/HoursWorkspace';
import { PersonnelWorkspace } from './personnel/PersonnelWorkspace';
import { Settings } from './Settings';
import { SyncCentre } from './sync-centre/SyncCentre';

export const WORKSPACES = ['courses', 'hours', 'personnel', 'syncCenter', 'settings'] as const;
export type Workspace = (typeof WORKSPACES)[number];

export function Shell({ state }: { state: AppState }) {
  const { t } = useTranslation();
  const [workspace, setWorkspace] = useState<Workspace>('courses');
  const [signOut, setSignOut] = useState(false);
  const main = useRef<HTMLElement>(null);

  const go = (next: Workspace) => {
    setWorkspace(next);
    // Keyboard and screen reader users continue where the workspace's work starts (the course
    // list, where T and Enter work at once), else at its main area.
    window.requestAnimationFrame(() => {
      const starts = main.current?.querySelectorAll<HTMLElement>('[data-workspace-start]') ?? [];
      const shown = [...starts].find((element) => element.getClientRects().length > 0);
      (shown ?? main.current)?.focus();
    });
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      // An open dialog keeps its form: switching would close it and lose what was typed.
      if (dialogOpen()) return;
      const index = Number(event.key) - 1;
      const next = WORKSPACES[index];
      if (!next) return;
      event.preventDefault();
      go(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        <SyncIndicator onOpenSyncCentre={() => go('syncCenter')} />
        <div className="topbar-end">
          <LanguageSwitch />
          {state.user ? (
            <span className="user" data-testid="user-name">
              {state.user.name}
            </span>
          ) : null}
          <button type="button" className="secondary" onClick={() => setSignOut(true)}>
            {t('signOut.button')}
          </button>
        </div>
      </header>
      <nav className="sidebar" aria-label={t('nav.label')}>
        <ul>
          {WORKSPACES.map((name, index) => (
            <li key={name}>
              <button
                type="button"
                className="nav-item"
                aria-current={workspace === name ? 'page' : undefined}
                aria-keyshortcuts={`Alt+${index + 1}`}
                title={`Alt+${index + 1}`}
                onClick={() => go(name)}
              >
                {t(`nav.${name}`)}
              </button>
            </li>
          ))}
        </ul>
        <DemoServiceSwitch state={state} />
      </nav>
      <main id="main" className="workspace" ref={main} tabIndex={-1}>
        {workspace === 'courses' ? (
          <CoursesWorkspace />
        ) : workspace === 'hours' ? (
          <HoursWorkspace />
        ) : workspace === 'syncCenter' ? (
          <SyncCentre />
        ) : workspace === 'settings' ? (
          <Settings state={state} />
        ) : (
          <PersonnelWorkspace />
        )}
      </main>
      <SignOutDialog open={signOut} onClose={() => setSignOut(false)} />
    </div>
  );
}
