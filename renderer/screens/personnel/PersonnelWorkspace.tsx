// The office's personnel (Alt+5): everyone the account may read, searched as one types (names,
// member number, e-mail, phone; anywhere in a word, without umlauts), filtered by status (counts
// beside each), group and qualification, sorted by name, member number or status; the person
// beside the list (two panes on a wide window) or instead of it (one pane, with a way back).
// Shortcuts: "/" or Ctrl+F the search, Down from the search into the list, Escape or Alt+Left back,
// N a new person, E changes the open one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_STATUSES, type PersonListItem } from '../../contract';
import { useQuery, useWindowedQuery } from '../../data';
import { errorText } from '../../errors';
import { formatNumber } from '../../format';
import { dialogOpen, focusWhenShown, isTyping } from '../../keyboard';
import { useFill } from '../../layout';
import { useSync } from '../../stores';
import { PeopleList, type PeopleListHandle } from './PeopleList';
import { PersonDetail } from './PersonDetail';
import { ReadOnlyNote, usePersonnelGrants } from './bits';
import { DueView } from './DueView';
import { PersonDialog, type PersonDialogRequest } from './PersonDialog';
import { PersonnelTabs, viewPanelId } from './PersonnelTabs';
import { usePersonnelUi, type PersonnelSort, type PersonStatus } from './state';
import './personnel.css';

/** Wider than this (CSS px of the workspace), list and person stand side by side. */
const TWO_PANES_FROM = 900;
const SORTS: PersonnelSort[] = ['name', 'mitgliednr', 'status'];

export function PersonnelWorkspace() {
  const view = usePersonnelUi((state) => state.view);
  const setView = usePersonnelUi((state) => state.setView);
  const setOpen = usePersonnelUi((state) => state.setOpen);
  if (view === 'due')
    return (
      <DueView
        onOpenPerson={(id) => {
          setOpen(id);
          setView('people');
          focusWhenShown('#person-title');
        }}
      />
    );
  return <PeopleView />;
}

function PeopleView() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { filter, sort, openId, setFilter, setSort, setOpen } = usePersonnelUi();
  const root = useRef<HTMLElement>(null);
  const wide = useFill(root) >= TWO_PANES_FROM;
  const list = useRef<PeopleListHandle>(null);
  const search = useRef<HTMLInputElement>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const [range, setRange] = useState({ from: 0, to: 40 });
  const onRange = useCallback((from: number, to: number) => setRange({ from, to }), []);
  const replicaPeople = useSync((store) => store.status?.counts.user);
  const grants = usePersonnelGrants();
  const grantsRef = useRef(grants);
  grantsRef.current = grants;

  // Typing: each key queries at once (the list keeps its rows until the answer; an answer to an
  // earlier key that comes late is dropped by the query).

  const people = useWindowedQuery(
    'personnel.list',
    {
      search: filter.search.trim() || undefined,
      status: filter.status.length ? filter.status : undefined,
      group: filter.group || undefined,
      qualification: filter.qualification || undefined,
      sort,
    },
    range,
  );
  const facets = useQuery('personnel.facets', {});
  const total = people.head?.total ?? 0;
  const counts = people.head?.statusCounts ?? {};

  const [dialog, setDialog] = useState<PersonDialogRequest | null>(null);
  const [focusDetail, setFocusDetail] = useState(false);
  const detailFocused = useCallback(() => setFocusDetail(false), []);
  const openPerson = (person: PersonListItem, byKeyboard: boolean) => {
    setOpen(person.id);
    setFocusDetail(byKeyboard || !wide);
  };
  const back = () => {
    if (!wide) setOpen(null);
    window.requestAnimationFrame(() => list.current?.focus());
  };
  const backRef = useRef(back);
  backRef.current = back;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || dialogOpen()) return;
      const typing = isTyping(event.target);
      const toSearch =
        ((event.key === 'f' || event.key === 'F') && event.ctrlKey && !event.altKey) ||
        (event.key === '/' && !typing && !event.ctrlKey && !event.altKey);
      if (toSearch) {
        event.preventDefault();
        search.current?.focus();
        search.current?.select();
        return;
      }
      const plainKey = !typing && !event.ctrlKey && !event.altKey && !event.metaKey;
      if (plainKey && (event.key === 'n' || event.key === 'N') && grantsRef.current.add) {
        event.preventDefault();
        setDialog({ mode: 'create' });
        return;
      }
      if (plainKey && (event.key === 'e' || event.key === 'E')) {
        document.querySelector<HTMLButtonElement>('[data-testid="person-edit"]')?.click();
        return;
      }
      const inDetail =
        event.target instanceof Element && event.target.closest('.person-detail') !== null;
      if (
        (event.key === 'ArrowLeft' && event.altKey && !event.ctrlKey && !typing) ||
        (event.key === 'Escape' && inDetail && !typing)
      ) {
        event.preventDefault();
        backRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const toggleStatus = (status: PersonStatus) =>
    setFilter({
      status: filter.status.includes(status)
        ? filter.status.filter((s) => s !== status)
        : [...filter.status, status],
    });
  const filtered =
    filter.search.trim() !== '' ||
    filter.status.length > 0 ||
    filter.group !== '' ||
    filter.qualification !== '';
  const clearFilters = () => {
    setFilter({ search: '', status: [], group: '', qualification: '' });
    search.current?.focus();
  };

  const showList = wide || !openId;
  return (
    <section
      ref={root}
      className={`personnel-workspace ${wide ? 'two-panes' : 'one-pane'}`}
      id={viewPanelId('people')}
      aria-labelledby="workspace-title"
      data-testid="personnel-workspace"
    >
      <div className="people-pane" hidden={!showList}>
        <div className="people-head">
          <h1 id="workspace-title">{t('nav.personnel')}</h1>
          <PersonnelTabs />
          <span className="muted" aria-live="polite" data-testid="people-total">
            {people.head
              ? t('personnel.list.count', { count: total, n: formatNumber(total, language) })
              : ''}
          </span>
          <span className="people-actions">
            {grants.add ? (
              <button
                type="button"
                data-testid="person-new"
                aria-keyshortcuts="N"
                title={t('personnel.actions.newTitle')}
                onClick={() => setDialog({ mode: 'create' })}
              >
                {t('personnel.actions.new')}
              </button>
            ) : null}
            {grants.add && grants.update ? (
              <button
                type="button"
                className="secondary"
                data-testid="person-by-number"
                onClick={() => setDialog({ mode: 'identifier' })}
              >
                {t('personnel.actions.byNumber')}
              </button>
            ) : null}
          </span>
        </div>
        <ReadOnlyNote />
        <form
          className="people-filter"
          role="search"
          aria-label={t('personnel.filter.label')}
          onSubmit={(event) => {
            event.preventDefault();
            list.current?.focus();
          }}
        >
          <label htmlFor="people-search" className="visually-hidden">
            {t('personnel.filter.search')}
          </label>
          <input
            id="people-search"
            ref={search}
            type="search"
            value={filter.search}
            placeholder={t('personnel.filter.searchPlaceholder')}
            title={t('personnel.filter.searchTitle')}
            aria-keyshortcuts="/ Control+F"
            autoComplete="off"
            spellCheck={false}
            data-testid="people-search"
            data-workspace-start
            onChange={(event) => setFilter({ search: event.target.value })}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') {
                event.preventDefault();
                list.current?.focus();
              }
            }}
          />
          <fieldset className="status-filter">
            <legend className="visually-hidden">{t('personnel.filter.status')}</legend>
            {PERSON_STATUSES.map((status) => (
              <label key={status} className="status-choice" data-testid={`status-${status}`}>
                <input
                  type="checkbox"
                  checked={filter.status.includes(status)}
                  onChange={() => toggleStatus(status)}
                />
                {t(`personnel.status.${status}`)}
                <span className="count">{formatNumber(counts[status] ?? 0, language)}</span>
              </label>
            ))}
          </fieldset>
          <div className="people-selects">
            <label>
              <span>{t('personnel.filter.group')}</span>
              <select
                value={filter.group}
                data-testid="people-group"
                onChange={(event) => setFilter({ group: event.target.value })}
              >
                <option value="">{t('personnel.filter.any')}</option>
                {(facets.data?.groups ?? []).map((group) => (
                  <option key={group.name} value={group.name}>
                    {group.name} ({formatNumber(group.people, language)})
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t('personnel.filter.qualification')}</span>
              <select
                value={filter.qualification}
                data-testid="people-qualification"
                onChange={(event) => setFilter({ qualification: event.target.value })}
              >
                <option value="">{t('personnel.filter.any')}</option>
                {(facets.data?.qualifications ?? []).map((q) => (
                  <option key={q.name} value={q.name}>
                    {q.name} ({formatNumber(q.people, language)})
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t('personnel.filter.sort')}</span>
              <select
                value={sort}
                data-testid="people-sort"
                onChange={(event) => setSort(event.target.value as PersonnelSort)}
              >
                {SORTS.map((name) => (
                  <option key={name} value={name}>
                    {t(`personnel.sort.${name}`)}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </form>
        {people.error ? (
          <p className="form-error" role="alert">
            {errorText(people.error, language)}
          </p>
        ) : null}
        <h2 id="people-list-label" className="visually-hidden">
          {t('personnel.list.label')}
        </h2>
        {people.head && total === 0 ? (
          <div
            className="empty-state"
            data-testid="people-empty"
            data-search={people.shownArgs?.search ?? ''}
            data-total={0}
          >
            {filtered ? (
              <>
                <p className="empty-title">{t('personnel.empty.filteredTitle')}</p>
                <button type="button" className="secondary" onClick={clearFilters}>
                  {t('personnel.filter.clear')}
                </button>
              </>
            ) : (
              <>
                <p className="empty-title">{t('personnel.empty.replicaTitle')}</p>
                <p>
                  {replicaPeople === 0 ? t('personnel.empty.replica') : t('personnel.empty.none')}
                </p>
              </>
            )}
          </div>
        ) : (
          <PeopleList
            total={total}
            itemAt={people.itemAt}
            openId={openId}
            onOpen={openPerson}
            onRange={onRange}
            handle={list}
            labelledBy="people-list-label"
            shownSearch={people.head ? (people.shownArgs?.search ?? '') : undefined}
          />
        )}
        <p className="keys-hint muted">{t('personnel.list.keys')}</p>
      </div>
      {openId ? (
        <div className="person-pane">
          <PersonDetail
            key={openId}
            id={openId}
            headingRef={detailHeading}
            onBack={wide ? null : back}
            wantFocus={focusDetail}
            onFocused={detailFocused}
            onEdit={(person) =>
              setDialog({ mode: 'edit', id: person.id, attributes: person.attributes })
            }
          />
        </div>
      ) : wide ? (
        <div className="person-pane placeholder-pane" data-testid="person-none">
          <p className="muted">{t('personnel.detail.none')}</p>
        </div>
      ) : null}
      <PersonDialog
        request={dialog}
        onClose={() => setDialog(null)}
        onSaved={(id) => {
          setOpen(id);
          setFocusDetail(true);
        }}
      />
    </section>
  );
}
