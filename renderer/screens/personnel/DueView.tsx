// What falls due (Fällig): across everyone, the trainings and checks expired or expiring within
// the months chosen, by person, each person saying how current their checks are; the people whose
// checks were never read after them (unknown, not clear), unless left out. Exported as CSV or
// printed as PDF from the replica (offline too). Up/Down move through the people, Enter opens
// one in the list of everyone.
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serviceDay, type DuePerson, type ExportRequestInput } from '../../contract';
import { ExportButton } from '../../components/ExportButton';
import { useWindowedQuery } from '../../data';
import { errorText } from '../../errors';
import { formatDate, formatNumber } from '../../format';
import { useFill } from '../../layout';
import { useRovingRows } from '../../list-keys';
import { addMonths } from '../courses/state';
import { PersonStatusBadge } from './bits';
import { PersonnelTabs, viewPanelId } from './PersonnelTabs';
import { usePersonnelUi } from './state';

const MONTHS = [0, 1, 3, 6, 12];
/** A person's line without entries; each entry adds one line. */
const PERSON_HEIGHT = 44;
const ENTRY_HEIGHT = 26;

export function DueView({ onOpenPerson }: { onOpenPerson(id: string): void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { months, unread } = usePersonnelUi((state) => state.due);
  const setDue = usePersonnelUi((state) => state.setDue);
  const root = useRef<HTMLElement>(null);
  useFill(root);
  const today = serviceDay();
  // The last day something may fall due to be listed: today, or `months` months later.
  const until = addMonths(today, months);
  const [range, setRange] = useState({ from: 0, to: 40 });
  const onRange = useCallback((from: number, to: number) => setRange({ from, to }), []);
  const due = useWindowedQuery('personnel.due', { until, today, unread }, range);
  const total = due.head?.total ?? 0;
  const withDue = due.head?.withDue ?? 0;

  const exportRequest = (formatName: 'csv' | 'pdf'): ExportRequestInput => ({
    format: formatName,
    what: 'due',
    until,
    includeUnread: unread,
    language: language === 'en' ? 'en' : 'de',
    ...(formatName === 'csv' && language === 'en' ? { separator: ',' as const } : {}),
  });

  return (
    <section
      ref={root}
      className="due-view"
      id={viewPanelId('due')}
      aria-labelledby="workspace-title"
      data-testid="due-view"
    >
      <div className="people-head">
        <h1 id="workspace-title">{t('nav.personnel')}</h1>
        <PersonnelTabs />
      </div>
      <div className="due-controls">
        <label>
          <span>{t('personnel.due.period')}</span>
          <select
            value={months}
            data-testid="due-months"
            data-workspace-start
            onChange={(event) => setDue({ months: Number(event.target.value) })}
          >
            {MONTHS.map((n) => (
              <option key={n} value={n}>
                {n === 0 ? t('personnel.due.expiredOnly') : t('personnel.due.within', { count: n })}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={unread}
            data-testid="due-unread"
            onChange={(event) => setDue({ unread: event.target.checked })}
          />
          {t('personnel.due.showUnread')}
        </label>
        <span className="due-exports">
          <ExportButton
            label={t('personnel.due.csv')}
            request={() => exportRequest('csv')}
            disabled={total === 0}
            data-testid="due-csv"
          />
          <ExportButton
            label={t('personnel.due.pdf')}
            request={() => exportRequest('pdf')}
            disabled={total === 0}
            data-testid="due-pdf"
          />
        </span>
      </div>
      <p className="muted due-summary" aria-live="polite" data-testid="due-summary">
        {due.head
          ? t('personnel.due.summary', {
              count: withDue,
              n: formatNumber(withDue, language),
              until: formatDate(until, language),
            }) +
            (unread && total > withDue
              ? ` ${t('personnel.due.unreadCount', { count: total - withDue, n: formatNumber(total - withDue, language) })}`
              : '')
          : ''}
      </p>
      {due.error ? (
        <p className="form-error" role="alert">
          {errorText(due.error, language)}
        </p>
      ) : null}
      <h2 id="due-list-label" className="visually-hidden">
        {t('personnel.due.label')}
      </h2>
      {due.head && total === 0 ? (
        <div className="empty-state" data-testid="due-empty">
          <p className="empty-title">{t('personnel.due.none')}</p>
        </div>
      ) : (
        <DueList total={total} itemAt={due.itemAt} onOpen={onOpenPerson} onRange={onRange} />
      )}
      <p className="keys-hint muted">{t('personnel.due.keys')}</p>
    </section>
  );
}

function DueList({
  total,
  itemAt,
  onOpen,
  onRange,
}: {
  total: number;
  itemAt(index: number): DuePerson | undefined;
  onOpen(id: string): void;
  onRange(from: number, to: number): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { scroller, virtualizer, rows, index, setActive, moveKey } = useRovingRows({
    count: total,
    rowHeight: PERSON_HEIGHT + ENTRY_HEIGHT,
    overscan: 8,
    onRange,
  });

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (moveKey(event, '[data-testid="due-row"]')) return;
    if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey) return;
    // The row that has the focus, whatever the list read since.
    const id = (event.target as HTMLElement).dataset.personId;
    if (!id) return;
    event.preventDefault();
    onOpen(id);
  };

  return (
    <div
      className="people-scroller due-scroller"
      ref={scroller}
      role="list"
      aria-labelledby="due-list-label"
      data-testid="due-list"
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rows.map((row) => {
          const person = itemAt(row.index);
          const style = {
            position: 'absolute' as const,
            top: 0,
            left: 0,
            right: 0,
            transform: `translateY(${row.start}px)`,
          };
          if (!person)
            return (
              <div
                key={row.key}
                style={{ ...style, height: PERSON_HEIGHT }}
                role="listitem"
                aria-busy="true"
              >
                <div className="person-row placeholder" aria-hidden="true" />
              </div>
            );
          const asOf = person.checksConfirmedAt
            ? t('personnel.due.checksAsOf', {
                date: formatDate(person.checksConfirmedAt, language),
              })
            : t('personnel.due.neverRead');
          return (
            <div
              key={row.key}
              style={style}
              role="listitem"
              data-index={row.index}
              ref={virtualizer.measureElement}
            >
              <div
                className="person-row due-row"
                data-testid="due-row"
                data-person-id={person.id}
                data-row-index={row.index}
                tabIndex={row.index === index ? 0 : -1}
                onClick={() => {
                  setActive(row.index);
                  onOpen(person.id);
                }}
                onFocus={() => setActive(row.index)}
              >
                <span className="person-name">
                  {person.nachname}, {person.vorname}
                </span>
                <span className="person-number muted">{person.mitgliednr ?? ''}</span>
                <span className="person-badges">
                  <PersonStatusBadge status={person.status} />
                </span>
                <span
                  className={person.checksConfirmedAt ? 'due-as-of muted' : 'due-as-of never-read'}
                  data-testid="due-as-of"
                >
                  {asOf}
                </span>
                {person.entries.length ? (
                  <ul className="due-entries">
                    {person.entries.map((entry) => (
                      <li
                        key={`${entry.kind}-${entry.id}`}
                        className={entry.expired ? 'expired' : undefined}
                      >
                        <span className="due-kind">{t(`personnel.due.kind.${entry.kind}`)}</span>
                        <span className="due-what">{entry.bezeichnung ?? '–'}</span>
                        <span className="due-date">{formatDate(entry.due, language)}</span>
                        <span className={entry.expired ? 'badge due-expired' : 'badge due-soon'}>
                          {entry.expired ? t('personnel.due.expired') : t('personnel.due.soon')}
                        </span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
