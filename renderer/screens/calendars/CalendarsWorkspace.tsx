// Kalender (issue 23): the account's calendars from the replica, created (a draft of the
// interface: the form says so) and deleted after a confirmation, offline through the outbox; each
// calendar's private feed address masked ("https://host/…"), copied whole to the clipboard only
// when asked (calendars.icalUrl: it is a secret, never shown, never logged); and the private feed's
// events by day or week from the replica (feed.events), offline as online. Keys: ←→ the previous
// and next day or week, T today, D day, W week, N a new calendar.
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { QueryResults } from '../../contract';
import { sendCommand, useQuery } from '../../data';
import { useAreaBlocked } from '../../areas';
import { errorText } from '../../errors';
import {
  absoluteTime,
  formatDate,
  formatDay,
  formatTime,
  relativeTime,
  useNow,
} from '../../format';
import { asCoreError, useApp } from '../../stores';
import { NotSent } from '../courses/bits';
import { CalendarDialog } from './CalendarDialog';
import { addDays, daysOf, rangeOf, serviceToday, useCalendarsUi } from './state';
import './calendars.css';

type Calendar = QueryResults['calendars.list'][number];
type FeedEvent = QueryResults['feed.events'][number];

/** A key typed into a field is the field's. */
const typing = (target: EventTarget) =>
  target instanceof HTMLElement && target.matches('input, textarea, select, [contenteditable]');

export function CalendarsWorkspace() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const blocked = useAreaBlocked('calendars');
  const [creating, setCreating] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  if (blocked)
    return (
      <section className="calendars" aria-labelledby="calendars-title">
        <h1 id="calendars-title">{t('calendars.title')}</h1>
        <p className="warning" data-testid="calendars-unavailable">
          {language === 'en' ? blocked.message.en : blocked.message.de}
        </p>
      </section>
    );

  return (
    <section
      className="calendars"
      aria-labelledby="calendars-title"
      data-testid="calendars-workspace"
      onKeyDown={(event) => {
        if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
        if (event.key === 'n' || event.key === 'N') {
          event.preventDefault();
          setCreating(true);
        }
      }}
    >
      <div className="calendars-head">
        <h1 id="calendars-title">{t('calendars.title')}</h1>
        <div className="calendars-status" role="status">
          {message ? (
            <p className={message.error ? 'form-error' : 'calendars-message'}>{message.text}</p>
          ) : null}
        </div>
      </div>
      <div className="calendars-body">
        <CalendarList onCreate={() => setCreating(true)} onMessage={setMessage} />
        <FeedEvents />
      </div>
      <p className="hint" id="calendars-keys">
        {t('calendars.keys')}
      </p>
      <CalendarDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(name) => setMessage({ text: t('calendars.created', { name }), error: false })}
      />
    </section>
  );
}

function CalendarList({
  onCreate,
  onMessage,
}: {
  onCreate(): void;
  onMessage(message: { text: string; error: boolean } | null): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const bridge = useApp((store) => store.bridge);
  const calendars = useQuery('calendars.list', {});
  const feed = useQuery('feed.get', {});
  const items = calendars.data ?? [];
  const [deleting, setDeleting] = useState<Calendar | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const nameOf = (calendar: Calendar) => calendar.name?.trim() || t('calendars.untitled');

  /** The whole address, fetched now and handed to the clipboard; never shown, never logged. */
  const copy = async (calendar: Calendar) => {
    if (!bridge) return;
    try {
      const url = await bridge.call('calendars.icalUrl', { id: calendar.id });
      if (!url) return onMessage({ text: t('calendars.noAddress'), error: true });
      await navigator.clipboard.writeText(url);
      onMessage({ text: t('calendars.copied', { name: nameOf(calendar) }), error: false });
    } catch {
      // The reason may name the address (a refused clipboard says nothing useful anyway).
      onMessage({ text: t('calendars.copyFailed'), error: true });
    }
  };

  /** Makes the calendar's address the private feed whose events this screen shows. */
  const takeAsFeed = async (calendar: Calendar) => {
    if (!bridge) return;
    try {
      const url = await bridge.call('calendars.icalUrl', { id: calendar.id });
      if (!url) return onMessage({ text: t('calendars.noAddress'), error: true });
      const state = await bridge.call('feed.set', { url });
      feed.reload();
      onMessage({
        text: state.lastFetchedAt
          ? t('calendars.feedSet', { count: state.events })
          : t('calendars.feedSetLater'),
        error: false,
      });
    } catch (error) {
      onMessage({ text: errorText(asCoreError(error), language), error: true });
    }
  };

  const remove = async () => {
    if (!deleting || busy) return;
    setBusy(true);
    setDeleteError(null);
    const result = await sendCommand('kalender.delete', { id: deleting.id });
    setBusy(false);
    if (!result.ok) return setDeleteError(errorText(result.error, language));
    onMessage({ text: t('calendars.deleted', { name: nameOf(deleting) }), error: false });
    setDeleting(null);
  };

  const feedConfigured = feed.data?.configured ?? true;
  return (
    <section className="calendar-list-pane" aria-labelledby="calendars-own">
      <div className="section-head">
        <h2 id="calendars-own">{t('calendars.own')}</h2>
        <button
          type="button"
          className="secondary"
          data-testid="calendar-new"
          aria-keyshortcuts="N"
          title={t('calendars.newTitle')}
          onClick={onCreate}
        >
          {t('calendars.new')}
        </button>
      </div>
      {calendars.error ? (
        <p className="form-error" role="alert">
          {errorText(calendars.error, language)}
        </p>
      ) : calendars.data && items.length === 0 ? (
        <p className="muted" data-testid="calendars-empty">
          {t('calendars.none')}
        </p>
      ) : (
        <ul
          className="calendar-list"
          aria-label={t('calendars.listLabel', { count: items.length })}
        >
          {items.map((calendar) => {
            const name = nameOf(calendar);
            return (
              <li
                key={calendar.id}
                className="calendar-item"
                data-testid="calendar-row"
                data-calendar-id={calendar.id}
                data-local-state={calendar.localState ?? ''}
              >
                <span
                  className="calendar-swatch"
                  aria-hidden="true"
                  style={{ background: calendar.farbe ?? 'transparent' }}
                />
                <span className="calendar-main">
                  <span className="calendar-name">
                    {name}
                    {calendar.localState ? <NotSent state={calendar.localState} /> : null}
                  </span>
                  <span className="muted calendar-meta">
                    {[
                      calendar.typ
                        ? t(`calendars.typ.${calendar.typ}`, { defaultValue: calendar.typ })
                        : null,
                      calendar.icalAddress
                        ? t('calendars.address', { address: calendar.icalAddress })
                        : calendar.localState === 'created'
                          ? t('calendars.addressLater')
                          : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                  <span className="calendar-actions">
                    {calendar.icalAddress ? (
                      <button
                        type="button"
                        className="secondary"
                        data-testid="calendar-copy"
                        aria-label={`${t('calendars.copy')}: ${name}`}
                        onClick={() => void copy(calendar)}
                      >
                        {t('calendars.copy')}
                      </button>
                    ) : null}
                    {calendar.icalAddress && !feedConfigured ? (
                      <button
                        type="button"
                        className="secondary"
                        data-testid="calendar-use-feed"
                        aria-label={`${t('calendars.useAsFeed')}: ${name}`}
                        onClick={() => void takeAsFeed(calendar)}
                      >
                        {t('calendars.useAsFeed')}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="secondary"
                      data-testid="calendar-delete"
                      aria-label={`${t('calendars.delete')}: ${name}`}
                      onClick={() => {
                        setDeleteError(null);
                        setDeleting(calendar);
                      }}
                    >
                      {t('calendars.delete')}
                    </button>
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('calendars.deleteTitle', { name: deleting ? nameOf(deleting) : '' })}
        text={t('calendars.deleteText')}
        confirmLabel={t('calendars.delete')}
        destructive
        busy={busy}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
        data-testid="calendar-delete-confirm"
      />
    </section>
  );
}

function FeedEvents() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const now = useNow();
  const view = useCalendarsUi((state) => state.view);
  const anchor = useCalendarsUi((state) => state.anchor);
  const setView = useCalendarsUi((state) => state.setView);
  const setAnchor = useCalendarsUi((state) => state.setAnchor);
  const range = rangeOf(view, anchor);
  const feed = useQuery('feed.get', {});
  const events = useQuery('feed.events', range);
  const step = view === 'day' ? 1 : 7;
  const today = serviceToday();

  const byDay = new Map<string, FeedEvent[]>();
  for (const event of events.data ?? []) {
    const list = byDay.get(event.startDay) ?? [];
    list.push(event);
    byDay.set(event.startDay, list);
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    const key = event.key.toLowerCase();
    if (event.key === 'ArrowLeft') setAnchor(addDays(anchor, -step));
    else if (event.key === 'ArrowRight') setAnchor(addDays(anchor, step));
    else if (key === 't') setAnchor(today);
    else if (key === 'd') setView('day');
    else if (key === 'w') setView('week');
    else return;
    event.preventDefault();
  };

  // The range in words: "Mo., 23. Nov. 2026" or "23.11.2026 – 29.11.2026".
  const label =
    view === 'day'
      ? formatDay(range.from, language)
      : `${formatDate(range.from, language)} – ${formatDate(range.until, language)}`;
  const state = feed.data;
  return (
    <section
      className="feed-events-pane"
      aria-labelledby="feed-events-title"
      onKeyDown={onKeyDown}
      data-testid="feed-events"
    >
      <div className="section-head">
        <h2 id="feed-events-title">{t('calendars.events.title')}</h2>
        <span className="muted feed-line" data-testid="feed-line">
          {!state
            ? null
            : state.configured
              ? [
                  t('calendars.events.feed', { address: state.address ?? '…' }),
                  state.lastFetchedAt
                    ? t('calendars.events.fetched', {
                        when: relativeTime(state.lastFetchedAt, now, language, { past: true }),
                      })
                    : t('calendars.events.neverFetched'),
                ].join(' · ')
              : null}
        </span>
      </div>
      {state?.problem ? (
        <p className="field-error" data-testid="feed-problem">
          {language === 'en' ? state.problem.en : state.problem.de}
        </p>
      ) : null}
      <div className="events-toolbar">
        <div className="segmented" role="group" aria-label={t('calendars.events.viewLabel')}>
          {(['day', 'week'] as const).map((name) => (
            <button
              key={name}
              type="button"
              className={view === name ? '' : 'secondary'}
              aria-pressed={view === name}
              aria-keyshortcuts={name === 'day' ? 'D' : 'W'}
              data-testid={`events-view-${name}`}
              onClick={() => setView(name)}
            >
              {t(`calendars.events.${name}`)}
            </button>
          ))}
        </div>
        <div className="events-nav">
          <button
            type="button"
            className="secondary"
            aria-keyshortcuts="ArrowLeft"
            aria-label={t(`calendars.events.previous.${view}`)}
            title={t(`calendars.events.previous.${view}`)}
            data-testid="events-previous"
            onClick={() => setAnchor(addDays(anchor, -step))}
          >
            ←
          </button>
          <button
            type="button"
            className="secondary"
            aria-keyshortcuts="T"
            data-testid="events-today"
            onClick={() => setAnchor(today)}
          >
            {t('calendars.events.today')}
          </button>
          <button
            type="button"
            className="secondary"
            aria-keyshortcuts="ArrowRight"
            aria-label={t(`calendars.events.next.${view}`)}
            title={t(`calendars.events.next.${view}`)}
            data-testid="events-next"
            onClick={() => setAnchor(addDays(anchor, step))}
          >
            →
          </button>
        </div>
        <strong className="events-range" aria-live="polite" data-testid="events-range">
          {label}
        </strong>
      </div>
      <div
        className="events-region"
        tabIndex={0}
        data-workspace-start
        aria-labelledby="feed-events-title"
        aria-describedby="calendars-keys"
        data-testid="events-region"
      >
        {state && !state.configured ? (
          <p className="muted" data-testid="feed-none">
            {t('calendars.events.noFeed')}
          </p>
        ) : events.error ? (
          <p className="form-error" role="alert">
            {errorText(events.error, language)}
          </p>
        ) : (
          daysOf(range.from, range.until).map((day) => {
            const list = byDay.get(day) ?? [];
            return (
              <section
                key={day}
                className={day === today ? 'event-day today' : 'event-day'}
                aria-label={formatDay(day, language)}
                data-testid="event-day"
                data-day={day}
              >
                <h3>
                  {formatDay(day, language)}
                  {day === today ? (
                    <span className="badge badge-quiet">{t('calendars.events.today')}</span>
                  ) : null}
                </h3>
                {list.length === 0 ? (
                  <p className="muted event-none">{t('calendars.events.none')}</p>
                ) : (
                  <ul className="event-list">
                    {list.map((event) => (
                      <EventRow key={`${event.uid}|${event.recurrenceId}`} event={event} />
                    ))}
                  </ul>
                )}
              </section>
            );
          })
        )}
      </div>
      {state?.configured && state.lastFetchedAt ? (
        <p className="hint" title={absoluteTime(state.lastFetchedAt, language)}>
          {t('calendars.events.offline')}
        </p>
      ) : null}
    </section>
  );
}

function EventRow({ event }: { event: FeedEvent }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const cancelled = event.status?.toUpperCase() === 'CANCELLED';
  let when: string;
  if (event.allDay) {
    const last = event.endsAt ? addDays(event.endsAt, -1) : null;
    when =
      last && last > event.startsAt
        ? t('calendars.events.allDayUntil', { day: formatDate(last, language) })
        : t('calendars.events.allDay');
  } else {
    const start = formatTime(event.startsAt, language);
    when = event.endsAt ? `${start}–${formatTime(event.endsAt, language)}` : start;
  }
  return (
    <li
      className={cancelled ? 'event cancelled' : 'event'}
      data-testid="feed-event"
      data-uid={event.uid}
    >
      <span className="event-when mono-num">{when}</span>
      <span className="event-main">
        <span className="event-summary">
          {event.summary?.trim() || t('calendars.events.untitled')}
          {cancelled ? <span className="badge">{t('calendars.events.cancelled')}</span> : null}
          {event.recurring ? (
            <span className="badge badge-quiet" title={t('calendars.events.recurringTitle')}>
              {t('calendars.events.recurring')}
            </span>
          ) : null}
        </span>
        {event.location ? <span className="muted event-location">{event.location}</span> : null}
      </span>
    </li>
  );
}
