// The shell of the signed-in app: the sync indicator always in view, the workspaces in their
// groups (./navigation.ts; Alt+number switches), search everything (Ctrl+K), the user and sign-out.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { DemoServiceSwitch } from '../components/DemoServiceSwitch';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SearchPalette, type SearchHit } from '../components/SearchPalette';
import { SignOutDialog } from '../components/SignOutDialog';
import { SyncIndicator } from '../components/SyncIndicator';
import { useQuery } from '../data';
import { dialogOpen, focusWhenShown } from '../keyboard';
import { CalendarsWorkspace } from './calendars/CalendarsWorkspace';
import { ClientsWorkspace } from './clients/ClientsWorkspace';
import { ClientDialog } from './courses/ClientDialog';
import { CoursesWorkspace } from './courses/CoursesWorkspace';
import { useCoursesUi } from './courses/state';
import { HoursWorkspace } from './hours/HoursWorkspace';
import { NotificationsWorkspace } from './notifications/NotificationsWorkspace';
import { useHoursUi } from './hours/state';
import { PersonnelWorkspace } from './personnel/PersonnelWorkspace';
import { ReferenceWorkspace } from './reference/ReferenceWorkspace';
import { usePersonnelUi } from './personnel/state';
import { NAV_GROUPS, useVisibleWorkspaces, type Workspace } from './navigation';
import { Settings } from './Settings';
import { SyncCentre } from './sync-centre/SyncCentre';

export function Shell({ state }: { state: AppState }) {
  const { t } = useTranslation();
  const [chosen, setWorkspace] = useState<Workspace>('courses');
  const entries = useVisibleWorkspaces();
  // A workspace whose area the service now refuses is left for the first one shown.
  const workspace = entries.some((entry) => entry.id === chosen)
    ? chosen
    : (entries[0]?.id ?? 'courses');
  const keysToEntries = useRef(entries);
  keysToEntries.current = entries;
  const [signOut, setSignOut] = useState(false);
  const [searching, setSearching] = useState(false);
  /** The client opened from search everything. */
  const [client, setClient] = useState<string | null>(null);
  const main = useRef<HTMLElement>(null);
  const unread = useQuery('notifications.count', {}).data?.unread ?? 0;

  /** To a workspace; the focus to `focus` once it is shown (an opened record's heading). */
  const go = (next: Workspace, focus?: string) => {
    setWorkspace(next);
    // Keyboard and screen reader users continue where the workspace's work starts (the course
    // list, where T and Enter work at once), else at its main area.
    window.requestAnimationFrame(() => {
      const starts = main.current?.querySelectorAll<HTMLElement>('[data-workspace-start]') ?? [];
      const shown = [...starts].find((element) => element.getClientRects().length > 0);
      (shown ?? main.current)?.focus();
      if (focus) focusWhenShown(focus);
    });
  };

  const openCourse = (courseId: string) => {
    useCoursesUi.getState().setOpen({ courseId, dateId: null });
    go('courses', '#course-detail-title');
  };

  const openHit = (hit: SearchHit) => {
    switch (hit.kind) {
      case 'person':
        usePersonnelUi.getState().setOpen(hit.id);
        return go('personnel', '#person-title');
      case 'course':
        return openCourse(hit.id);
      case 'participant':
        return openCourse(hit.courseId);
      case 'occasion':
        // An occasion is where hours are entered: a new entry for it, on its day (in the office's
        // view of everyone's hours, the form that asks whose entry it is).
        useHoursUi.getState().setDialog({
          mode: 'create',
          office: useHoursUi.getState().view === 'all',
          draft: {
            anlassId: hit.id,
            anlassText: hit.label,
            ...(hit.datum ? { day: hit.datum.slice(0, 10) } : {}),
          },
        });
        return go('hours');
      case 'client':
        return setClient(hit.id);
    }
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Search everything: Ctrl+K (Cmd+K on macOS), also from a text box.
      if ((event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey)) {
        if (dialogOpen()) return;
        event.preventDefault();
        setSearching(true);
        return;
      }
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      // An open dialog keeps its form: switching would close it and lose what was typed.
      if (dialogOpen()) return;
      const next = keysToEntries.current.find((entry) => String(entry.key) === event.key);
      if (!next) return;
      event.preventDefault();
      go(next.id);
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
        {NAV_GROUPS.map((group) => {
          const shown = entries.filter((entry) => entry.group === group);
          if (shown.length === 0) return null;
          return (
            <div key={group} className={`nav-group nav-group-${group}`}>
              {group === 'system' ? null : (
                <h2 className="nav-group-title" id={`nav-group-${group}`}>
                  {t(`nav.groups.${group}`)}
                </h2>
              )}
              <ul aria-labelledby={group === 'system' ? undefined : `nav-group-${group}`}>
                {shown.map(({ id, key }) => (
                  <li key={id}>
                    <button
                      type="button"
                      className="nav-item"
                      data-workspace={id}
                      aria-current={workspace === id ? 'page' : undefined}
                      aria-keyshortcuts={`Alt+${key}`}
                      title={`Alt+${key}`}
                      onClick={() => go(id)}
                    >
                      {t(`nav.${id}`)}
                      {id === 'notifications' && unread > 0 ? (
                        <span className="nav-count" data-testid="nav-unread">
                          <span aria-hidden="true">{unread}</span>
                          <span className="visually-hidden">
                            {' '}
                            {t('nav.unread', { count: unread })}
                          </span>
                        </span>
                      ) : null}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
        <DemoServiceSwitch state={state} />
      </nav>
      <main id="main" className="workspace" ref={main} tabIndex={-1}>
        {workspace === 'courses' ? (
          <CoursesWorkspace />
        ) : workspace === 'hours' ? (
          <HoursWorkspace />
        ) : workspace === 'notifications' ? (
          <NotificationsWorkspace />
        ) : workspace === 'syncCenter' ? (
          <SyncCentre />
        ) : workspace === 'settings' ? (
          <Settings state={state} />
        ) : workspace === 'calendars' ? (
          <CalendarsWorkspace />
        ) : workspace === 'reference' ? (
          <ReferenceWorkspace />
        ) : workspace === 'clients' ? (
          <ClientsWorkspace onOpenCourse={openCourse} />
        ) : (
          <PersonnelWorkspace />
        )}
      </main>
      <SignOutDialog open={signOut} onClose={() => setSignOut(false)} />
      <SearchPalette open={searching} onClose={() => setSearching(false)} onOpen={openHit} />
      <ClientDialog
        clientId={client}
        onClose={() => setClient(null)}
        onOpenCourse={(courseId) => {
          setClient(null);
          openCourse(courseId);
        }}
      />
    </div>
  );
}
