// The people, virtualized over the whole list (the 10,000th person is a scroll away; its block
// of rows is read when it comes into view). One row is in the tab order: Up/Down, PageUp/PageDown
// and Home/End move, Enter opens the person beside the list.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonListItem } from '../../contract';
import { NotSent } from '../courses/bits';
import { PersonStatusBadge } from './bits';

const ROW_HEIGHT = 56;

export interface PeopleListHandle {
  /** Puts the focus on the active row (the search's Down arrow). */
  focus(): void;
}

export function PeopleList({
  total,
  itemAt,
  openId,
  onOpen,
  onRange,
  handle,
  labelledBy,
}: {
  total: number;
  itemAt(index: number): PersonListItem | undefined;
  openId: string | null;
  onOpen(person: PersonListItem, byKeyboard: boolean): void;
  /** The rows in view (and a few around): the blocks to read. */
  onRange(from: number, to: number): void;
  handle: Ref<PeopleListHandle>;
  labelledBy: string;
}) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const focusPending = useRef(false);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const index = Math.min(active, Math.max(0, total - 1));
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows[rows.length - 1]?.index ?? 0;

  useEffect(() => onRange(first, last), [first, last, onRange]);

  // A new search or filter starts at the top.
  useEffect(() => {
    if (active >= total && total > 0) setActive(0);
  }, [active, total]);

  // The row moved to gets the focus once it is rendered.
  useEffect(() => {
    if (!focusPending.current) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${index}"]`);
    if (row) {
      focusPending.current = false;
      row.focus({ preventScroll: true });
    }
  });

  const move = (next: number) => {
    if (total === 0) return;
    const bounded = Math.max(0, Math.min(total - 1, next));
    setActive(bounded);
    virtualizer.scrollToIndex(bounded, { align: 'auto' });
    // A row in view takes the focus now; one still to be drawn once it is (the effect above).
    const row = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${bounded}"]`);
    if (row) row.focus({ preventScroll: true });
    else focusPending.current = true;
  };

  useImperativeHandle(handle, () => ({ focus: () => move(index) }));

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (!(event.target as HTMLElement).matches('[data-testid="person-row"]')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    switch (event.key) {
      case 'ArrowDown':
        move(index + 1);
        break;
      case 'ArrowUp':
        move(index - 1);
        break;
      case 'PageDown':
        move(index + page);
        break;
      case 'PageUp':
        move(index - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(total - 1);
        break;
      case 'Enter': {
        const person = itemAt(index);
        if (person) onOpen(person, true);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div
      className="people-scroller"
      ref={scroller}
      role="list"
      aria-labelledby={labelledBy}
      data-testid="people-list"
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
            height: row.size,
            transform: `translateY(${row.start}px)`,
          };
          if (!person)
            return (
              <div key={row.key} style={style} role="listitem" aria-busy="true">
                <div className="person-row placeholder" aria-hidden="true" />
              </div>
            );
          return (
            <div key={row.key} style={style} role="listitem">
              <div
                className="person-row"
                data-testid="person-row"
                data-person-id={person.id}
                data-row-index={row.index}
                tabIndex={row.index === index ? 0 : -1}
                aria-current={person.id === openId ? 'true' : undefined}
                onClick={() => {
                  setActive(row.index);
                  onOpen(person, false);
                }}
                onFocus={() => setActive(row.index)}
              >
                <span className="person-name">
                  {person.nachname}, {person.vorname}
                </span>
                <span className="person-number muted">{person.mitgliednr ?? ''}</span>
                <span className="person-badges">
                  <PersonStatusBadge status={person.status} />
                  <NotSent state={person.localState} />
                </span>
                <span className="person-meta muted">
                  {[person.ort, person.qualifikationen.join(', ')].filter(Boolean).join(' · ') ||
                    person.email ||
                    t('personnel.list.noMeta')}
                </span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
