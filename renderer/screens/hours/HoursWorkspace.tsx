// The volunteer hours workspace (Alt+2): one's own entries by year (the years with their totals
// as tabs, the year's totals per type), the course days taught without hours as one-click
// drafts, and the entries newest first in a virtualized list. N (or Ctrl+N where the browser
// leaves it) adds an entry; in the list Up/Down move, Enter changes, Delete deletes. For the
// office a second tab holds everyone's hours (OfficeHours.tsx).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportRequestInput, HoursItem, QueryResults } from '../../contract';
import { ExportButton } from '../../components/ExportButton';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { sendCommand, useQuery } from '../../data';
import { errorText } from '../../errors';
import { inBrowser } from '../../shortcuts';
import {
  formatDate,
  formatDay,
  formatHours,
  formatTime,
  serviceDay,
  serviceTime,
} from '../../format';
import { amountText } from './draft';
import { HoursDialog } from './HoursDialog';
import { HoursList } from './HoursList';
import { HoursTabs, OfficeHoursRefused, useOfficeHoursAccess } from './HoursTabs';
import { OfficeHours } from './OfficeHours';
import { useHoursUi } from './state';
import { dialogOpen, isTyping } from '../../keyboard';
import './hours.css';

type Suggestion = QueryResults['hours.suggestions'][number];

/** The year's entries: pages of 1000 (the contract's most), as many as the list has reached. */
function useYearEntries(year: number, wanted: number) {
  const pages = Math.max(1, Math.ceil(wanted / 1000));
  const range = { userId: 'self' as const, from: `${year}-01-01`, until: `${year}-12-31` };
  const first = useQuery('hours.list', { ...range, limit: 1000, offset: 0 });
  const second = useQuery(
    'hours.list',
    { ...range, limit: 1000, offset: 1000 },
    { enabled: pages > 1 },
  );
  const rest = useQuery(
    'hours.list',
    { ...range, limit: 1000, offset: 2000 },
    { enabled: pages > 2 },
  );
  const items = useMemo(
    () => [
      ...(first.data?.items ?? []),
      ...(pages > 1 ? (second.data?.items ?? []) : []),
      ...(pages > 2 ? (rest.data?.items ?? []) : []),
    ],
    [first.data, second.data, rest.data, pages],
  );
  return {
    items,
    total: first.data?.total ?? 0,
    loading: first.data === undefined && first.loading,
    error: first.error,
  };
}

export function HoursWorkspace() {
  const view = useHoursUi((state) => state.view);
  const access = useOfficeHoursAccess();
  return view === 'all' && access.offered ? <OfficeHours /> : <OwnHours />;
}

function OwnHours() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const thisYear = Number(serviceDay().slice(0, 4));
  const years = useQuery('hours.years', { userId: 'self' });
  const [year, setYear] = useState(thisYear);
  const [wanted, setWanted] = useState(1000);
  const entries = useYearEntries(year, wanted);
  const summary = useQuery('hours.summary', { userId: 'self', year });
  const suggestions = useQuery('hours.suggestions', {});
  const dialog = useHoursUi((state) => state.dialog);
  const setDialog = useHoursUi((state) => state.setDialog);
  const [deleting, setDeleting] = useState<HoursItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  /** The entry just saved: the focus goes to it once the list shows it. */
  const [focusId, setFocusId] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  // The years there are, this year always among them (a new entry's year).
  const yearTabs = useMemo(() => {
    const list = [...(years.data ?? [])];
    if (!list.some((entry) => entry.year === thisYear))
      list.unshift({ year: thisYear, stunden: 0, entries: 0 });
    return list.sort((a, b) => b.year - a.year);
  }, [years.data, thisYear]);

  // N (or Ctrl+N) anywhere in the workspace, not while typing or in a dialog.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.metaKey) return;
      if (event.key !== 'n' && event.key !== 'N') return;
      if (isTyping(event.target) || dialogOpen()) return;
      event.preventDefault();
      setDialog({ mode: 'create' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The occasions the suggestions name, for the draft's words.
  const suggestionOccasion = useQuery(
    'hours.occasions',
    { limit: 200 },
    { enabled: (suggestions.data?.length ?? 0) > 0 },
  );

  const accept = (suggestion: Suggestion) => {
    const day = serviceDay(suggestion.from);
    const occasion = (suggestionOccasion.data ?? []).find((o) => o.id === suggestion.occasionId);
    const label = [
      suggestion.title,
      suggestion.courseNumber ? `(${suggestion.courseNumber})` : null,
    ]
      .filter(Boolean)
      .join(' ');
    setDialog({
      mode: 'create',
      suggestionDateId: suggestion.dateId,
      draft: {
        day,
        start: serviceTime(suggestion.from),
        end: suggestion.to ? serviceTime(suggestion.to) : '',
        stunden: amountText(suggestion.stunden, language),
        ...(suggestion.occasionId
          ? {
              anlassId: suggestion.occasionId,
              anlassText: occasion?.beschreibung ?? label,
            }
          : {
              newAnlass: true,
              anlassTyp: 'kurs',
              anlassBeschreibung: label || t('hours.suggestions.course'),
              anlassDatum: day,
            }),
      },
    });
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    const result = await sendCommand('helferstunden.delete', { id: deleting.id });
    setBusy(false);
    if (result.ok) {
      setNotice(t('hours.deleted', { what: entryWords(deleting) }));
      setDeleting(null);
    } else setDeleteError(errorText(result.error, language));
  };

  const entryWords = (item: HoursItem) =>
    t('hours.entryWords', {
      day: item.von ? formatDate(item.von, language) : '–',
      hours: formatHours(item.stunden ?? 0, language),
    });

  const chosen = yearTabs.find((entry) => entry.year === year);
  const suggestionList = suggestions.data ?? [];

  return (
    <section className="hours" aria-labelledby="workspace-title">
      <header className="hours-head">
        <h1 id="workspace-title">{t('hours.title')}</h1>
        <HoursTabs />
        <div className="hours-exports" role="group" aria-label={t('hours.export.label')}>
          <ExportButton
            label={t('hours.export.csv', { year })}
            data-testid="export-hours-csv"
            request={() => yearExport('csv', year, language)}
          />
          <ExportButton
            label={t('hours.export.ics', { year })}
            data-testid="export-hours-ics"
            request={() => yearExport('ics', year, language)}
          />
        </div>
        <button
          type="button"
          ref={addButton}
          onClick={() => setDialog({ mode: 'create' })}
          // A browser keeps Ctrl+N for a new window.
          aria-keyshortcuts={inBrowser() ? 'N' : 'N Control+N'}
          title={t('hours.addKey')}
          data-testid="hours-add"
        >
          {t('hours.add')}
        </button>
      </header>
      <p className="visually-hidden" role="status" data-testid="hours-notice">
        {notice}
      </p>
      <OfficeHoursRefused />

      {suggestionList.length > 0 ? (
        <section className="hours-suggestions" aria-labelledby="hours-suggestions-title">
          <h2 id="hours-suggestions-title">
            {t('hours.suggestions.title')}{' '}
            <span className="count-badge">{suggestionList.length}</span>
          </h2>
          <p className="hint">{t('hours.suggestions.intro')}</p>
          <ul className="hours-suggestion-list">
            {suggestionList.map((suggestion) => (
              <li
                key={suggestion.dateId}
                className="hours-suggestion"
                data-testid="hours-suggestion"
                data-date-id={suggestion.dateId}
                data-course-id={suggestion.courseId}
              >
                <span className="hours-suggestion-day">{formatDay(suggestion.from, language)}</span>
                <span className="hours-suggestion-course">
                  <strong>{suggestion.title ?? t('hours.suggestions.course')}</strong>
                  {suggestion.courseNumber ? (
                    <span className="muted"> · {suggestion.courseNumber}</span>
                  ) : null}
                </span>
                <span className="hours-suggestion-time muted">
                  {formatTime(suggestion.from, language)}
                  {suggestion.to ? `–${formatTime(suggestion.to, language)}` : ''}
                </span>
                <span className="hours-suggestion-hours">
                  {t('hours.unit', { hours: formatHours(suggestion.stunden, language) })}
                </span>
                <button
                  type="button"
                  className="secondary"
                  data-testid="hours-suggestion-accept"
                  aria-label={t('hours.suggestions.acceptLabel', {
                    day: formatDate(suggestion.from, language),
                    course: suggestion.title ?? '',
                  })}
                  onClick={() => accept(suggestion)}
                >
                  {t('hours.suggestions.accept')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="hours-years" role="tablist" aria-label={t('hours.years')}>
        {yearTabs.map((entry) => (
          <button
            key={entry.year}
            type="button"
            role="tab"
            id={`hours-year-${entry.year}`}
            aria-selected={entry.year === year}
            aria-controls="hours-year-panel"
            tabIndex={entry.year === year ? 0 : -1}
            className="hours-year"
            data-testid="hours-year"
            data-year={entry.year}
            data-stunden={entry.stunden}
            onClick={() => {
              setYear(entry.year);
              setWanted(1000);
            }}
            onKeyDown={(event) => {
              const index = yearTabs.findIndex((y) => y.year === year);
              const next =
                event.key === 'ArrowRight'
                  ? yearTabs[index + 1]
                  : event.key === 'ArrowLeft'
                    ? yearTabs[index - 1]
                    : event.key === 'Home'
                      ? yearTabs[0]
                      : event.key === 'End'
                        ? yearTabs[yearTabs.length - 1]
                        : undefined;
              if (!next) return;
              event.preventDefault();
              setYear(next.year);
              setWanted(1000);
              document.getElementById(`hours-year-${next.year}`)?.focus();
            }}
          >
            <span className="hours-year-label">{entry.year}</span>
            <span className="hours-year-total">
              {t('hours.unit', { hours: formatHours(entry.stunden, language) })}
            </span>
          </button>
        ))}
      </div>

      <div
        className="hours-panel"
        role="tabpanel"
        id="hours-year-panel"
        aria-labelledby={`hours-year-${year}`}
      >
        <div className="hours-summary" data-testid="hours-summary">
          <div
            className="hours-total"
            data-testid="hours-total"
            data-stunden={summary.data?.totalStunden ?? chosen?.stunden ?? 0}
          >
            <span className="hours-total-value">
              {formatHours(summary.data?.totalStunden ?? chosen?.stunden ?? 0, language)}
            </span>
            <span className="hours-total-label">
              {t('hours.totalLabel', {
                year,
                count: summary.data?.entries ?? chosen?.entries ?? 0,
              })}
            </span>
          </div>
          {summary.data && summary.data.byTyp.length > 0 ? (
            <ul className="hours-by-type" aria-label={t('hours.byType')}>
              {summary.data.byTyp.map((row) => (
                <li key={row.typ ?? '-'} data-testid="hours-type-total" data-typ={row.typ ?? ''}>
                  <span className="hours-type-name">{row.typ ?? t('hours.noType')}</span>
                  <span className="hours-type-value">
                    {t('hours.unit', { hours: formatHours(row.stunden, language) })}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        {entries.error ? <p className="form-error">{errorText(entries.error, language)}</p> : null}
        {entries.loading ? (
          <p className="muted">{t('hours.loading')}</p>
        ) : entries.items.length === 0 ? (
          <div className="hours-empty" data-testid="hours-empty">
            <p>{t('hours.empty', { year })}</p>
            <button
              type="button"
              className="secondary"
              onClick={() => setDialog({ mode: 'create' })}
            >
              {t('hours.add')}
            </button>
          </div>
        ) : (
          <HoursList
            items={entries.items}
            total={entries.total}
            focusId={focusId}
            onFocusTaken={() => setFocusId(null)}
            onNearEnd={() => {
              if (entries.items.length < entries.total)
                setWanted((n) => Math.max(n, entries.items.length + 1000));
            }}
            onEdit={(item) => setDialog({ mode: 'edit', item })}
            onDelete={(item) => {
              setDeleteError(null);
              setDeleting(item);
            }}
          />
        )}
      </div>

      <HoursDialog
        request={dialog}
        onClose={() => setDialog(null)}
        onSaved={(message, day, id) => {
          setDialog(null);
          setNotice(message);
          setFocusId(id);
          // The year of what was saved comes into view.
          const savedYear = Number(day.slice(0, 4));
          if (savedYear && savedYear !== year) setYear(savedYear);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('hours.delete.title')}
        text={deleting ? t('hours.delete.text', { what: entryWords(deleting) }) : ''}
        confirmLabel={t('hours.delete.confirm')}
        destructive
        busy={busy}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
        data-testid="hours-delete-dialog"
      >
        {deleting?.localState === 'created' ? (
          <p className="hint">{t('hours.delete.notSent')}</p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

/** One's own entries of the year shown, as the list shows them. */
function yearExport(format: 'csv' | 'ics', year: number, language: string): ExportRequestInput {
  return {
    format,
    what: 'hours',
    userId: 'self',
    from: `${year}-01-01`,
    until: `${year}-12-31`,
    language: language === 'en' ? 'en' : 'de',
  };
}
