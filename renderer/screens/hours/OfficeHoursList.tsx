// Everyone's hours entries of the office's filter, newest first, virtualized over the whole list
// (a block of 100 rows is read when it comes into view): day and time, the person over the
// occasion with its kind and the type, hours, approval and "nicht gesendet". One row is in the tab order; Up/Down,
// PageUp/PageDown and Home/End move, Enter changes, Delete deletes. The office may change an
// approved entry too.
import { memo, useEffect, useMemo, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { HoursItem } from '../../contract';
import { formatDay, formatTime, hoursWords, rememberEach } from '../../format';
import { useRovingRows } from '../../list-keys';

const ROW_HEIGHT = 52;

// Memoised: the view around it paints again with every filter typed; the rows only when they change.
export const OfficeHoursList = memo(function OfficeHoursList({
  total,
  itemAt,
  filterKey,
  onRange,
  focusId,
  onFocusTaken,
  onEdit,
  onDelete,
}: {
  total: number;
  itemAt(index: number): HoursItem | undefined;
  /** The filter whose rows the list shows (data-filter: what a bench and tests wait for). */
  filterKey: string | undefined;
  onRange(from: number, to: number): void;
  /** An entry to focus once the rows in view have it (the one just saved). */
  focusId: string | null;
  onFocusTaken(): void;
  onEdit(item: HoursItem): void;
  onDelete(item: HoursItem): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // Every row says the same words: each looked up once per language, not per row and render.
  const words = useMemo(
    () => ({
      unknownPerson: t('hoursOffice.unknownPerson'),
      noOccasion: t('hours.noOccasion'),
      notSent: t('hours.notSent.label'),
      notSentTitle: rememberEach((state: string) => t(`hours.notSent.${state}`)),
      approved: t('hours.approved'),
      open: t('hours.open'),
      edit: t('hours.edit'),
      deleteButton: t('hours.delete.button'),
      deleteKey: t('hours.deleteKey'),
      amount: hoursWords((values) => t('hours.unit', values), language),
      occasionTyp: rememberEach((typ: string) =>
        t(`hours.anlassTyp.${typ}`, { defaultValue: typ }),
      ),
      day: rememberEach((von: string) => formatDay(von, language)),
    }),
    [t, language],
  );
  const { scroller, virtualizer, rows, index, setActive, move, moveKey } = useRovingRows({
    count: total,
    rowHeight: ROW_HEIGHT,
    overscan: 5,
    onRange,
  });

  // The entry just saved, once a row in view shows it (a new one comes with the next read).
  useEffect(() => {
    if (focusId === null) return;
    const at = rows.find((row) => itemAt(row.index)?.id === focusId);
    if (!at) return;
    onFocusTaken();
    move(at.index);
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (moveKey(event, '[data-testid="office-hours-row"]')) return;
    if (!(event.target as HTMLElement).matches('[data-testid="office-hours-row"]')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = itemAt(index);
    if (!current) return;
    if (event.key === 'Enter') onEdit(current);
    else if (event.key === 'Delete') onDelete(current);
    else return;
    event.preventDefault();
  };

  return (
    <>
      <div className="office-hours-row office-hours-list-head" aria-hidden="true">
        <span>{t('hours.column.day')}</span>
        <span>{t('hoursOffice.column.who')}</span>
        <span className="num">{t('hours.column.stunden')}</span>
        <span className="hours-state">{t('hours.column.state')}</span>
        <span />
      </div>
      <div
        className="office-hours-scroller"
        ref={scroller}
        role="list"
        aria-label={t('hours.listLabel', { count: total })}
        aria-describedby="office-hours-keys"
        data-testid="office-hours-list"
        data-total={total}
        data-filter={filterKey}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const item = itemAt(row.index);
            const style = {
              position: 'absolute' as const,
              top: 0,
              left: 0,
              right: 0,
              height: ROW_HEIGHT,
              transform: `translateY(${row.start}px)`,
            };
            if (!item)
              return (
                <div
                  key={row.key}
                  className="office-hours-slot"
                  style={style}
                  role="listitem"
                  aria-busy="true"
                >
                  <div className="office-hours-row placeholder" aria-hidden="true" />
                </div>
              );
            const day = item.von ? words.day(item.von) : '–';
            const occasionTyp = item.anlassTyp ? words.occasionTyp(item.anlassTyp) : null;
            const person = item.userName ?? words.unknownPerson;
            return (
              <div key={row.key} className="office-hours-slot" style={style} role="listitem">
                <div
                  className="office-hours-row"
                  tabIndex={row.index === index ? 0 : -1}
                  data-row-index={row.index}
                  data-selected={row.index === index}
                  data-testid="office-hours-row"
                  data-hours-id={item.id}
                  data-user-id={item.userId ?? ''}
                  data-local-state={item.localState ?? ''}
                  data-freigegeben={item.freigegeben === true}
                  aria-keyshortcuts="Enter Delete"
                  onFocus={() => setActive(row.index)}
                  onClick={() => setActive(row.index)}
                  onDoubleClick={() => onEdit(item)}
                >
                  <span className="hours-when">
                    <span className="hours-day">{day}</span>
                    <span className="hours-time muted">
                      {item.von ? formatTime(item.von, language) : ''}
                      {item.bis ? `–${formatTime(item.bis, language)}` : ''}
                    </span>
                  </span>
                  <span className="hours-occasion-cell">
                    <span className="office-hours-person">{person}</span>
                    <span className="hours-occasion-meta muted">
                      {[item.anlass ?? words.noOccasion, occasionTyp, item.typ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </span>
                  <span className="hours-stunden num">{words.amount(item.stunden ?? 0)}</span>
                  <span className="hours-state">
                    {item.localState ? (
                      <span
                        className="badge badge-not-sent"
                        data-testid="not-sent"
                        data-local-state={item.localState}
                        title={words.notSentTitle(item.localState)}
                      >
                        {words.notSent}
                      </span>
                    ) : null}
                    {item.freigegeben === true ? (
                      <span className="badge badge-approved">{words.approved}</span>
                    ) : (
                      <span className="badge badge-quiet">{words.open}</span>
                    )}
                  </span>
                  <span className="hours-actions">
                    <button
                      type="button"
                      className="secondary"
                      data-testid="office-hours-edit"
                      title="Enter"
                      aria-label={`${words.edit}: ${person}, ${day}`}
                      onClick={() => onEdit(item)}
                    >
                      {words.edit}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      data-testid="office-hours-delete"
                      title={words.deleteKey}
                      aria-label={`${words.deleteButton}: ${person}, ${day}`}
                      onClick={() => onDelete(item)}
                    >
                      {words.deleteButton}
                    </button>
                  </span>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
});
