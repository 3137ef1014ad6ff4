// The personnel workspace's two views as tabs beside its heading: everyone (Personen) and what
// falls due (Fällig). Left/Right move between them and show the one moved to (the tabs pattern
// of WAI-ARIA); the view shown survives switching workspaces.
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePersonnelUi, type PersonnelView } from './state';

const VIEWS: PersonnelView[] = ['people', 'due'];

/** The id of the element a view's tab controls. */
export const viewPanelId = (view: PersonnelView) => `personnel-view-${view}`;

export function PersonnelTabs() {
  const { t } = useTranslation();
  const view = usePersonnelUi((state) => state.view);
  const setView = usePersonnelUi((state) => state.setView);
  const tabs = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = VIEWS[(VIEWS.indexOf(view) + step + VIEWS.length) % VIEWS.length]!;
    setView(next);
    window.requestAnimationFrame(() =>
      tabs.current?.querySelector<HTMLElement>(`[data-view="${next}"]`)?.focus(),
    );
  };

  return (
    <div
      className="personnel-tabs"
      role="tablist"
      aria-label={t('personnel.views.label')}
      ref={tabs}
      onKeyDown={onKeyDown}
    >
      {VIEWS.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          data-view={name}
          data-testid={`personnel-tab-${name}`}
          aria-selected={view === name}
          aria-controls={view === name ? viewPanelId(name) : undefined}
          tabIndex={view === name ? 0 : -1}
          onClick={() => setView(name)}
        >
          {t(`personnel.views.${name}`)}
        </button>
      ))}
    </div>
  );
}
