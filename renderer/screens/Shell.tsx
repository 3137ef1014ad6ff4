// The shell of the signed-in app: the sync indicator always in view, the navigation frame for
// the workspaces the next issues fill, the user and sign-out.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SignOutDialog } from '../components/SignOutDialog';
import { SyncIndicator } from '../components/SyncIndicator';
import { formatNumber } from '../format';
import { useSync } from '../stores';
import { Settings } from './Settings';

export const WORKSPACES = ['courses', 'hours', 'personnel', 'syncCenter', 'settings'] as const;
export type Workspace = (typeof WORKSPACES)[number];

/** The replica's record types each placeholder can already count (real data, not made up). */
const COUNTED: Partial<Record<Workspace, string>> = {
  courses: 'course',
  hours: 'helferstunden',
  personnel: 'user',
};

function Placeholder({ workspace }: { workspace: Exclude<Workspace, 'settings'> }) {
  const { t, i18n } = useTranslation();
  const status = useSync((store) => store.status);
  const counted = COUNTED[workspace];
  const count = counted && status ? status.counts[counted] : undefined;
  return (
    <section className="placeholder" aria-labelledby="workspace-title">
      <h1 id="workspace-title">{t(`nav.${workspace}`)}</h1>
      <div className="coming">
        <h2>{t('workspace.comingTitle')}</h2>
        <p>{t(`workspace.${workspace}`)}</p>
        {count !== undefined ? (
          <p className="muted" data-testid="workspace-count">
            {count > 0
              ? t('workspace.available', { n: formatNumber(count, i18n.language) })
              : t('workspace.availableNone')}
          </p>
        ) : null}
      </div>
    </section>
  );
}

export function Shell({ state }: { state: AppState }) {
  const { t } = useTranslation();
  const [workspace, setWorkspace] = useState<Workspace>('courses');
  const [signOut, setSignOut] = useState(false);
  const main = useRef<HTMLElement>(null);

  const go = (next: Workspace) => {
    setWorkspace(next);
    // The new workspace's heading is where keyboard and screen reader users continue.
    window.requestAnimationFrame(() => main.current?.focus());
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        <SyncIndicator />
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
          {WORKSPACES.map((name) => (
            <li key={name}>
              <button
                type="button"
                className="nav-item"
                aria-current={workspace === name ? 'page' : undefined}
                onClick={() => go(name)}
              >
                {t(`nav.${name}`)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="workspace" ref={main} tabIndex={-1}>
        {workspace === 'settings' ? (
          <Settings state={state} />
        ) : (
          <Placeholder workspace={workspace} />
        )}
      </main>
      <SignOutDialog open={signOut} onClose={() => setSignOut(false)} />
    </div>
  );
}
