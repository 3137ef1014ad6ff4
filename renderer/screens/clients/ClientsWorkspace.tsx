// Kunden (the office's clients): the list, searched by name, and the client beside it (two panes)
// or instead of it (one pane, with a way back): its data, its courses (course type, dates and
// place, each opening the course in the courses workspace) and its participants. Where the
// account cannot read the clients (403, 423, or the trainer's profile, which does not sync them)
// the workspace says why in words and offers nothing. Shortcuts: "/" or Ctrl+F the search, Down
// into the list, Enter opens, Escape or Alt+Left back.
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryResults } from '../../contract';
import { useQuery } from '../../data';
import { errorText } from '../../errors';
import { formatNumber } from '../../format';
import { dialogOpen, isTyping } from '../../keyboard';
import { useFill } from '../../layout';
import { useRovingRows } from '../../list-keys';
import { useSync } from '../../stores';
import { ClientDetail } from './ClientDetail';
import { useClientsUi } from './state';
import './clients.css';

const TWO_PANES_FROM = 900;
const ROW_HEIGHT = 52;

type ClientItem = QueryResults['clients.list'][number];

/** Why the clients cannot be shown here (null: they can). */
function useUnavailable(): 'officeOnly' | 'forbidden' | 'unlicensed' | null {
  return useSync((store) => {
    const status = store.status;
    if (!status) return null;
    for (const area of status.unavailableAreas) {
      if (area.area !== 'courses') continue;
      if (area.state === 'forbidden' || area.state === 'unlicensed') return area.state;
      const clients = area.collections.find((c) => c.collection === 'clients');
      if (clients && clients.state !== 'available') return clients.state;
    }
    return status.profile === 'trainer' ? 'officeOnly' : null;
  });
}

export function ClientsWorkspace(props: { onOpenCourse(courseId: string): void }) {
  const { t } = useTranslation();
  const unavailable = useUnavailable();
  if (unavailable)
    return (
      <section
        className="clients"
        aria-labelledby="workspace-title"
        data-testid="clients-workspace"
      >
        <h1 id="workspace-title" tabIndex={-1} data-workspace-start>
          {t('clients.title')}
        </h1>
        <p className="clients-unavailable" role="note" data-testid="clients-unavailable">
          {t(`clients.${unavailable}`)}
        </p>
      </section>
    );
  return <ClientsView onOpenCourse={props.onOpenCourse} />;
}

function ClientsView({ onOpenCourse }: { onOpenCourse(courseId: string): void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { search: kept, openId, setSearch, setOpen } = useClientsUi();
  const root = useRef<HTMLElement>(null);
  const wide = useFill(root) >= TWO_PANES_FROM;
  const list = useRef<ClientListHandle>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [focusDetail, setFocusDetail] = useState(false);

  // Typing: each key queries at once (useQuery drops an answer to an earlier key that comes late).
  const clients = useQuery('clients.list', { search: kept.trim() || undefined });
  const items = clients.data ?? [];

  const open = (client: ClientItem, byKeyboard: boolean) => {
    setOpen(client.id);
    setFocusDetail(byKeyboard || !wide);
  };
  const back = () => {
    if (!openId) return;
    if (!wide) setOpen(null);
    window.requestAnimationFrame(() => list.current?.focus());
  };
  const backRef = useRef(back);
  backRef.current = back;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || dialogOpen()) return;
      const typing = isTyping(event.target);
      if (
        ((event.key === 'f' || event.key === 'F') && event.ctrlKey && !event.altKey) ||
        (event.key === '/' && !typing && !event.ctrlKey && !event.altKey)
      ) {
        event.preventDefault();
        searchBox.current?.focus();
        searchBox.current?.select();
        return;
      }
      if (typing) return;
      const inDetail =
        event.target instanceof Element && event.target.closest('.client-detail') !== null;
      if (
        (event.key === 'ArrowLeft' && event.altKey && !event.ctrlKey) ||
        (event.key === 'Escape' && inDetail)
      ) {
        event.preventDefault();
        backRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const focused = useCallback(() => setFocusDetail(false), []);
  const showList = wide || !openId;
  return (
    <section
      ref={root}
      className={`clients ${wide ? 'two-panes' : 'one-pane'}`}
      aria-labelledby="workspace-title"
      data-testid="clients-workspace"
    >
      <div className="clients-list-pane" hidden={!showList}>
        <div className="clients-head">
          <h1 id="workspace-title">{t('clients.title')}</h1>
          <span className="muted" aria-live="polite" data-testid="clients-total">
            {clients.data
              ? t('clients.count', { count: items.length, n: formatNumber(items.length, language) })
              : ''}
          </span>
        </div>
        <form
          role="search"
          className="clients-search"
          onSubmit={(event) => {
            event.preventDefault();
            list.current?.focus();
          }}
        >
          <label htmlFor="clients-search" className="visually-hidden">
            {t('clients.search')}
          </label>
          <input
            id="clients-search"
            ref={searchBox}
            type="search"
            value={kept}
            placeholder={t('clients.searchPlaceholder')}
            title={t('clients.searchTitle')}
            aria-keyshortcuts="/ Control+F"
            autoComplete="off"
            data-testid="clients-search"
            onChange={(event) => setSearch(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') {
                event.preventDefault();
                list.current?.focus();
              }
            }}
          />
        </form>
        {clients.error ? (
          <p className="form-error" role="alert">
            {errorText(clients.error, language)}
          </p>
        ) : null}
        <h2 id="clients-list-label" className="visually-hidden">
          {t('clients.listLabel')}
        </h2>
        {clients.data && items.length === 0 ? (
          <p className="clients-empty muted" data-testid="clients-empty">
            {kept.trim() ? t('clients.noneFound') : t('clients.none')}
          </p>
        ) : (
          <ClientList
            items={items}
            openId={openId}
            onOpen={open}
            handle={list}
            labelledBy="clients-list-label"
            shownSearch={kept}
          />
        )}
        <p className="keys-hint muted">{t('clients.keys')}</p>
      </div>
      {openId ? (
        <div className="clients-detail-pane">
          <ClientDetail
            key={openId}
            clientId={openId}
            headingRef={heading}
            wantFocus={focusDetail}
            onFocused={focused}
            onBack={wide ? null : back}
            onOpenCourse={onOpenCourse}
            onRefreshed={clients.reload}
          />
        </div>
      ) : wide ? (
        <div className="clients-detail-pane placeholder-pane">
          <p className="muted">{t('clients.pick')}</p>
        </div>
      ) : null}
    </section>
  );
}

interface ClientListHandle {
  focus(): void;
}

function ClientList(props: {
  items: ClientItem[];
  openId: string | null;
  onOpen(client: ClientItem, byKeyboard: boolean): void;
  handle: Ref<ClientListHandle>;
  labelledBy: string;
  shownSearch: string;
}) {
  const { t } = useTranslation();
  const { items } = props;
  const { scroller, virtualizer, rows, index, setActive, move, moveKey } = useRovingRows({
    count: items.length,
    rowHeight: ROW_HEIGHT,
    overscan: 10,
  });
  useImperativeHandle(props.handle, () => ({ focus: () => move(index) }));
  return (
    <div
      className="clients-list"
      ref={scroller}
      role="list"
      aria-labelledby={props.labelledBy}
      data-testid="clients-list"
      data-search={props.shownSearch}
      data-workspace-start
      tabIndex={-1}
      onFocus={(event) => {
        if (event.target === event.currentTarget && items.length > 0) move(index);
      }}
      onKeyDown={(event) => {
        if (moveKey(event, '[data-testid="client-row"]')) return;
        if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey) return;
        const client = items[index];
        if (!client) return;
        event.preventDefault();
        props.onOpen(client, true);
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rows.map((row) => {
          const client = items[row.index];
          if (!client) return null;
          return (
            <div
              key={row.key}
              role="listitem"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: row.size,
                transform: `translateY(${row.start}px)`,
              }}
            >
              <div
                className="client-row"
                data-testid="client-row"
                data-client-id={client.id}
                data-row-index={row.index}
                tabIndex={row.index === index ? 0 : -1}
                aria-current={client.id === props.openId ? 'true' : undefined}
                onClick={() => {
                  setActive(row.index);
                  props.onOpen(client, false);
                }}
                onFocus={() => setActive(row.index)}
              >
                <span className="client-name">{client.name?.trim() || t('clients.unnamed')}</span>
                <span className="client-meta muted">
                  {[client.city, t('clients.participants', { count: client.participants })]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
