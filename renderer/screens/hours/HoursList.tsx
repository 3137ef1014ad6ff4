// A year's hours entries, newest first, virtualized (thousands stay smooth): day, from–to,
// hours, occasion with its kind, type, approval and "nicht gesendet". One row is in the tab
// order; Up/Down/PageUp/PageDown/Home/End move, Enter changes, Delete deletes. An approved entry
// cannot be changed by a trainer: its buttons say so instead.
import { useEffect, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { HoursItem } from '../../contract';
import { formatDay, formatHours, formatTime } from '../../format';
import { useRovingRows } from '../../list-keys';

const ROW_HEIGHT = 58;

export function HoursList({
  items,
  total,
  focusId,
  onFocusTaken,
  onNearEnd,
  onEdit,
  onDelete,
}: {
  items: HoursItem[];
  total: number;
  /** An entry to focus once the list has it (the one just saved). */
  focusId: string | null;
  onFocusTaken(): void;
  onNearEnd(): void;
  onEdit(item: HoursItem): void;
  onDelete(item: HoursItem): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // Keyed by place, as the active row is: a new entry that gets the service's id keeps its row,
  // and the focus on it.
  const { scroller, virtualizer, index, setActive, move, moveKey } = useRovingRows({
    count: items.length,
    rowHeight: ROW_HEIGHT,
    overscan: 12,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const last = virtualItems[virtualItems.length - 1]?.index ?? 0;

  useEffect(() => {
    if (last >= items.length - 50 && items.length < total) onNearEnd();
  }, [last, items.length, total, onNearEnd]);

  // The entry just saved, once it is in the list (a new one comes with the next read).
  useEffect(() => {
    if (focusId === null) return;
    const at = items.findIndex((item) => item.id === focusId);
    if (at < 0) return;
    onFocusTaken();
    move(at);
  });

  const approved = (item: HoursItem) => item.freigegeben === true;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (moveKey(event, '[data-testid="hours-row"]')) return;
    if (!(event.target as HTMLElement).matches('[data-testid="hours-row"]')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = items[index];
    if (!current || approved(current)) return;
    if (event.key === 'Enter') onEdit(current);
    else if (event.key === 'Delete') onDelete(current);
    else return;
    event.preventDefault();
  };

  return (
    <>
      <div className="hours-list-head" aria-hidden="true">
        <span>{t('hours.column.day')}</span>
        <span className="num">{t('hours.column.stunden')}</span>
        <span>{t('hours.column.occasion')}</span>
        <span>{t('hours.column.state')}</span>
        <span />
      </div>
      <div
        className="hours-list"
        ref={scroller}
        onKeyDown={onKeyDown}
        data-testid="hours-list"
        data-total={total}
      >
        <div
          role="list"
          aria-label={t('hours.listLabel', { count: total })}
          aria-describedby="hours-keys"
          style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
        >
          {virtualItems.map((virtual) => {
            const item = items[virtual.index]!;
            const selected = virtual.index === index;
            const locked = approved(item);
            const occasionTyp = item.anlassTyp
              ? t(`hours.anlassTyp.${item.anlassTyp}`, { defaultValue: item.anlassTyp })
              : null;
            return (
              <div
                key={virtual.key}
                role="listitem"
                className="hours-row-frame"
                style={{ transform: `translateY(${virtual.start}px)`, height: ROW_HEIGHT }}
              >
                <div
                  className="hours-row"
                  tabIndex={selected ? 0 : -1}
                  data-row-index={virtual.index}
                  data-selected={selected}
                  data-testid="hours-row"
                  data-hours-id={item.id}
                  data-local-state={item.localState ?? ''}
                  data-freigegeben={item.freigegeben === true}
                  aria-keyshortcuts={locked ? undefined : 'Enter Delete'}
                  onFocus={() => setActive(virtual.index)}
                  onClick={() => setActive(virtual.index)}
                  onDoubleClick={() => (locked ? undefined : onEdit(item))}
                >
                  <span className="hours-when">
                    <span className="hours-day">
                      {item.von ? formatDay(item.von, language) : '–'}
                    </span>
                    <span className="hours-time muted">
                      {item.von ? formatTime(item.von, language) : ''}
                      {item.bis ? `–${formatTime(item.bis, language)}` : ''}
                    </span>
                  </span>
                  <span className="hours-stunden num" data-testid="hours-row-stunden">
                    {t('hours.unit', { hours: formatHours(item.stunden ?? 0, language) })}
                  </span>
                  <span className="hours-occasion-cell">
                    <span className="hours-occasion-name">
                      {item.anlass ?? t('hours.noOccasion')}
                    </span>
                    <span className="hours-occasion-meta muted">
                      {[occasionTyp, item.typ].filter(Boolean).join(' · ')}
                    </span>
                  </span>
                  <span className="hours-state">
                    {item.localState ? (
                      <span
                        className="badge badge-not-sent"
                        data-testid="not-sent"
                        data-local-state={item.localState}
                        title={t(`hours.notSent.${item.localState}`)}
                      >
                        {t('hours.notSent.label')}
                      </span>
                    ) : null}
                    {locked ? (
                      <span className="badge badge-approved" data-testid="hours-approved">
                        {t('hours.approved')}
                      </span>
                    ) : (
                      <span className="badge badge-quiet">{t('hours.open')}</span>
                    )}
                  </span>
                  <span className="hours-actions">
                    <button
                      type="button"
                      className="secondary"
                      data-testid="hours-edit"
                      disabled={locked}
                      title={locked ? t('hours.lockedHint') : 'Enter'}
                      aria-label={`${t('hours.edit')}: ${item.von ? formatDay(item.von, language) : ''}`}
                      onClick={() => onEdit(item)}
                    >
                      {t('hours.edit')}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      data-testid="hours-delete"
                      disabled={locked}
                      title={locked ? t('hours.lockedHint') : t('hours.deleteKey')}
                      aria-label={`${t('hours.delete.button')}: ${item.von ? formatDay(item.von, language) : ''}`}
                      onClick={() => onDelete(item)}
                    >
                      {t('hours.delete.button')}
                    </button>
                  </span>
                </div>
              </div>
            );
          })}
        </div>
      </div>
      <p className="hint hours-keys" id="hours-keys">
        {t('hours.keys')}
      </p>
    </>
  );
}
