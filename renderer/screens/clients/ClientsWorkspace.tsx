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
import { absoluteTime, formatNumber } from '../../format';
import { dialogOpen, isTyping } from '../../keyboard';
import { useFill } from '../../layout';
import { useRovingRows } from '../../list-keys';
import { useAsOfWords, useRefresh, type Refresh } from '../../refresh';
import { useSync } from '../../stores';
import { ClientCourses } from '../courses/ClientDialog';
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

const wordOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

function ClientDetail(props: {
  clientId: string;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  wantFocus: boolean;
  onFocused(): void;
  onBack: (() => void) | null;
  onOpenCourse(courseId: string): void;
  /** The refresh on opening came back (the list's count of participants reads again). */
  onRefreshed(): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const client = useQuery('clients.get', { id: props.clientId });
  const participants = useQuery('clients.participants', { clientId: props.clientId });
  // Opened online: the client's participants now (the sync reads them in turns).
  const { reload: reloadClient } = client;
  const { reload: reloadParticipants } = participants;
  const { onRefreshed } = props;
  const refresh = useRefresh('client', props.clientId, () => {
    reloadClient();
    reloadParticipants();
    onRefreshed();
  });
  const data = client.data;
  const { headingRef, wantFocus, onFocused } = props;
  useEffect(() => {
    if (data === undefined || !wantFocus) return;
    headingRef.current?.focus();
    onFocused();
  }, [data, wantFocus, headingRef, onFocused]);

  const attributes = data?.attributes ?? {};
  const street =
    wordOf(attributes.street) ??
    ([wordOf(attributes.street_name), wordOf(attributes.street_number)].filter(Boolean).join(' ') ||
      null);
  const town = [wordOf(attributes.postal_code), wordOf(attributes.city) ?? data?.city]
    .filter(Boolean)
    .join(' ');
  const email = wordOf(attributes.email);
  const facts: { key: string; label: string; value: React.ReactNode }[] = [
    {
      key: 'number',
      label: t('clients.customerNumber'),
      value: wordOf(attributes.customer_number),
    },
    {
      key: 'address',
      label: t('clients.address'),
      value: [street, town].filter(Boolean).join(', ') || null,
    },
    {
      key: 'contact',
      label: t('clients.contact'),
      value: wordOf(attributes.contact_person) ?? wordOf(attributes.contact_person_name),
    },
    {
      key: 'email',
      label: t('clients.email'),
      value: email ? <a href={`mailto:${email}`}>{email}</a> : null,
    },
    { key: 'phone', label: t('clients.phone'), value: wordOf(attributes.phone) },
  ].filter((fact) => fact.value);
  const courseLabel = new Map(
    (data?.courses ?? []).map((course) => [
      course.id,
      [course.courseNumber, course.title].filter(Boolean).join(' ') || course.id,
    ]),
  );

  return (
    <article
      className="client-detail"
      aria-labelledby="client-title"
      data-testid="client-detail"
      data-client-id={props.clientId}
    >
      {props.onBack ? (
        <button
          type="button"
          className="secondary back-button"
          onClick={props.onBack}
          aria-keyshortcuts="Escape Alt+ArrowLeft"
          title={t('clients.backTitle')}
          data-testid="client-back"
        >
          ← {t('clients.back')}
        </button>
      ) : null}
      {data === undefined && client.error ? (
        <p className="form-error" role="alert">
          {errorText(client.error, language)}
        </p>
      ) : data === undefined ? (
        <p aria-busy="true">{t('clients.loading')}</p>
      ) : data === null ? (
        <>
          <h2 id="client-title" ref={props.headingRef} tabIndex={-1}>
            {t('clients.unnamed')}
          </h2>
          <p>{t('clients.unknown')}</p>
        </>
      ) : (
        <>
          <h2
            id="client-title"
            ref={props.headingRef}
            tabIndex={-1}
            data-testid="client-title"
            data-workspace-start
          >
            {data.name?.trim() || t('clients.unnamed')}
          </h2>
          <AsOf confirmedAt={data.confirmedAt} refresh={refresh} />
          <section aria-labelledby="client-data-title" className="client-section">
            <h3 id="client-data-title">{t('clients.data')}</h3>
            {facts.length === 0 ? (
              <p className="muted">{t('clients.noData')}</p>
            ) : (
              <dl className="facts" data-testid="client-facts">
                {facts.map((fact) => (
                  <div key={fact.key} className="client-fact">
                    <dt>{fact.label}</dt>
                    <dd>{fact.value}</dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
          <section aria-labelledby="client-courses-title" className="client-section">
            <h3 id="client-courses-title">
              {t('clients.courses')}{' '}
              <span className="muted count-note">
                {t('clients.coursesCount', { count: data.courses.length })}
              </span>
            </h3>
            <ClientCourses courses={data.courses} onOpenCourse={props.onOpenCourse} />
          </section>
          <section aria-labelledby="client-participants-title" className="client-section">
            <h3 id="client-participants-title">
              {t('clients.participantsTitle')}{' '}
              <span className="muted count-note">
                {participants.data ? formatNumber(participants.data.length, language) : ''}
              </span>
            </h3>
            {participants.error ? (
              <p className="form-error" role="alert">
                {errorText(participants.error, language)}
              </p>
            ) : participants.data && participants.data.length === 0 ? (
              <p className="muted">{t('clients.noParticipants')}</p>
            ) : participants.data ? (
              <div className="client-participants-frame">
                <table className="client-participants" data-testid="client-participants">
                  <thead>
                    <tr>
                      <th scope="col">{t('clients.colName')}</th>
                      <th scope="col">{t('clients.colStatus')}</th>
                      <th scope="col">{t('clients.colCourse')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {participants.data.map((person) => (
                      <tr key={person.id} data-testid="client-participant">
                        <td>
                          {[person.lastName, person.firstName].filter(Boolean).join(', ') || '—'}
                        </td>
                        <td>
                          {person.status
                            ? t(`clients.status.${person.status}`, {
                                defaultValue: person.status,
                              })
                            : '—'}
                        </td>
                        <td>
                          {person.courseId
                            ? (courseLabel.get(person.courseId) ??
                              t('clients.otherCourse', { id: person.courseId }))
                            : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p aria-busy="true">{t('clients.loading')}</p>
            )}
          </section>
        </>
      )}
    </article>
  );
}

/** "Stand: vor 2 Minuten", "Wird aktualisiert …", "Offline – Stand …". */
function AsOf({ confirmedAt, refresh }: { confirmedAt: string | null; refresh: Refresh }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const at = refresh.phase === 'done' && refresh.confirmedAt ? refresh.confirmedAt : confirmedAt;
  const { words, offline } = useAsOfWords(at, refresh);
  return (
    <p className="client-as-of muted">
      <span
        className={offline ? 'as-of-text offline' : 'as-of-text'}
        data-testid="client-as-of"
        data-refresh={refresh.phase}
        title={at ? absoluteTime(at, language) : undefined}
        aria-live="polite"
      >
        {words}
      </span>
      {refresh.phase === 'failed' ? (
        <span className="as-of-error">
          {' '}
          {t('courses.asOf.failed', { reason: errorText(refresh.error, language) })}
        </span>
      ) : null}
    </p>
  );
}
