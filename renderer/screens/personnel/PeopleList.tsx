// The people, virtualized over the whole list (the 10,000th person is a scroll away; its block
// of rows is read when it comes into view). One row is in the tab order: Up/Down, PageUp/PageDown
// and Home/End move, Enter opens the person beside the list.
import { useImperativeHandle, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonListItem } from '../../contract';
import { useRovingRows } from '../../list-keys';
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
  shownSearch,
}: {
  total: number;
  /** The search whose rows the list shows (data-search: what a bench and tests wait for). */
  shownSearch: string | undefined;
  itemAt(index: number): PersonListItem | undefined;
  openId: string | null;
  onOpen(person: PersonListItem, byKeyboard: boolean): void;
  /** The rows in view (and a few around): the blocks to read. */
  onRange(from: number, to: number): void;
  handle: Ref<PeopleListHandle>;
  labelledBy: string;
}) {
  const { t } = useTranslation();
  const { scroller, virtualizer, rows, index, setActive, move, moveKey } = useRovingRows({
    count: total,
    rowHeight: ROW_HEIGHT,
    overscan: 10,
    onRange,
  });

  useImperativeHandle(handle, () => ({ focus: () => move(index) }));

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (moveKey(event, '[data-testid="person-row"]')) return;
    if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!(event.target as HTMLElement).matches('[data-testid="person-row"]')) return;
    const person = itemAt(index);
    if (person) onOpen(person, true);
    event.preventDefault();
  };

  return (
    <div
      className="people-scroller"
      ref={scroller}
      role="list"
      aria-labelledby={labelledBy}
      data-testid="people-list"
      data-search={shownSearch}
      data-total={total}
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
