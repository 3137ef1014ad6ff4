// The hours workspace's two views as tabs beside its heading, for the office only: one's own
// hours (Meine) and everyone's (Alle). A login that syncs only its own hours (the trainer's
// profile) sees no tabs; an office login the service refuses everyone's hours (403, or the
// module not licensed) sees why instead. Left/Right move between the tabs (WAI-ARIA tabs).
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings, useSync } from '../../stores';
import { useHoursUi, type HoursView } from './state';

const VIEWS: HoursView[] = ['own', 'all'];

/** Whether the office view is offered, and if it is not for an office login, why (in words). */
export function useOfficeHoursAccess(): { offered: boolean; refused: string | null } {
  const { i18n } = useTranslation();
  const status = useSync((store) => store.status);
  // The profile the app syncs with (before a first sync too), else the one the replica was read by.
  const chosen = useSettings((store) => store.settings?.profile);
  if ((chosen ?? status?.profile) !== 'office') return { offered: false, refused: null };
  const area = status?.unavailableAreas.find((entry) => entry.area === 'hours');
  const blocked =
    area &&
    (area.state === 'forbidden' ||
      area.state === 'unlicensed' ||
      area.collections.some((c) => c.collection === 'helferstunden' && c.state !== 'available'));
  if (blocked)
    return { offered: false, refused: i18n.language === 'en' ? area.message.en : area.message.de };
  return { offered: true, refused: null };
}

export function HoursTabs() {
  const { t } = useTranslation();
  const view = useHoursUi((state) => state.view);
  const setView = useHoursUi((state) => state.setView);
  const access = useOfficeHoursAccess();
  const tabs = useRef<HTMLDivElement>(null);
  if (!access.offered) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = VIEWS[(VIEWS.indexOf(view) + step + VIEWS.length) % VIEWS.length]!;
    setView(next);
    window.requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-testid="hours-tab-${next}"]`)?.focus(),
    );
  };

  return (
    <div
      className="hours-tabs"
      role="tablist"
      aria-label={t('hoursOffice.views.label')}
      ref={tabs}
      onKeyDown={onKeyDown}
    >
      {VIEWS.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          data-testid={`hours-tab-${name}`}
          aria-selected={view === name}
          tabIndex={view === name ? 0 : -1}
          onClick={() => setView(name)}
        >
          {t(`hoursOffice.views.${name}`)}
        </button>
      ))}
    </div>
  );
}

/** Said in the own view where an office login may not read everyone's hours. */
export function OfficeHoursRefused() {
  const { t } = useTranslation();
  const access = useOfficeHoursAccess();
  if (!access.refused) return null;
  return (
    <p className="readonly-note" role="note" data-testid="office-hours-refused">
      {t('hoursOffice.refused', { why: access.refused })}
    </p>
  );
}
