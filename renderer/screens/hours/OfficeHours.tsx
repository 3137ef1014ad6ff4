// The office's view of everyone's hours (Helferstunden, tab "Alle"): the entries of the replica
// filtered by person, occasion, type, period and state, in a list read in blocks around what is in
// view (100,000 entries scroll as 100), with the filter's totals per type and per person beside
// it. N adds an entry for a person, Enter changes, Delete deletes; the occasions are listed,
// created and changed in their own dialog; the filtered view exports as CSV and .ics.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportRequestInput, HoursItem, QueryArgs } from '../../contract';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField } from '../../components/DateTimeFields';
import { ExportButton } from '../../components/ExportButton';
import { sendCommand, useQuery, useWindowedQuery } from '../../data';
import { errorText } from '../../errors';
import { formatDate, formatHours } from '../../format';
import { dialogOpen, isTyping } from '../../keyboard';
import { inBrowser } from '../../shortcuts';
import { HoursDialog } from './HoursDialog';
import { HoursTabs } from './HoursTabs';
import { OccasionsDialog } from './OccasionsDialog';
import { OfficeHoursList } from './OfficeHoursList';
import { OfficeTotals } from './OfficeTotals';
import { useHoursUi, type OfficeHoursFilter } from './state';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

type HoursArgs = Omit<QueryArgs<'hours.totals'>, 'limit'>;

/** The query's filter of what the form holds: days only once they are days. */
export function argsOf(filter: OfficeHoursFilter): HoursArgs {
  return {
    ...(filter.userId ? { userId: filter.userId } : {}),
    ...(filter.anlassId ? { anlassId: filter.anlassId } : {}),
    ...(filter.typId ? { typId: filter.typId } : {}),
    ...(DAY.test(filter.from) ? { from: filter.from } : {}),
    ...(DAY.test(filter.until) ? { until: filter.until } : {}),
    ...(filter.state ? { freigegeben: filter.state === 'approved' } : {}),
  };
}

function withoutLimit({ limit: _limit, ...args }: QueryArgs<'hours.totals'>): HoursArgs {
  return args;
}

export function OfficeHours() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const filter = useHoursUi((state) => state.filter);
  const setFilter = useHoursUi((state) => state.setFilter);
  const resetFilter = useHoursUi((state) => state.resetFilter);
  const dialog = useHoursUi((state) => state.dialog);
  const setDialog = useHoursUi((state) => state.setDialog);
  const args = useMemo(() => argsOf(filter), [filter]);
  const key = JSON.stringify(args);

  const [range, setRange] = useState({ from: 0, to: 40 });
  const onRange = useCallback((from: number, to: number) => setRange({ from, to }), []);
  const entries = useWindowedQuery('hours.list', args, range);
  const totals = useQuery('hours.totals', { ...args, limit: 50 });
  const types = useQuery('hours.types', {});
  const settings = useQuery('hours.settings', {});
  const [personSearch, setPersonSearch] = useState('');
  // The pickers' choices are read once something is typed (not with every view opened).
  const people = useQuery(
    'personnel.list',
    { search: personSearch.trim() || undefined, limit: 20 },
    { enabled: personSearch.trim() !== '' },
  );
  const [occasionSearch, setOccasionSearch] = useState('');
  const occasions = useQuery(
    'hours.occasions',
    { search: occasionSearch.trim() || undefined, limit: 30 },
    { enabled: occasionSearch.trim() !== '' },
  );

  const [occasionsOpen, setOccasionsOpen] = useState(false);
  const [deleting, setDeleting] = useState<HoursItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  // N (or Ctrl+N) anywhere in the view, not while typing or in a dialog: an entry for a person.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.metaKey) return;
      if (event.key !== 'n' && event.key !== 'N') return;
      if (isTyping(event.target) || dialogOpen()) return;
      event.preventDefault();
      setDialog({ mode: 'create', office: true });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setDialog]);

  const total = entries.head?.total ?? 0;
  // The filters the list and the totals show: they stay the old one until the new one's answer
  // came, so the (memoised) list and totals paint once per filter, with its rows.
  const listFilter = entries.head ? JSON.stringify(entries.shownArgs) : undefined;
  const totalsFilter = totals.shownArgs
    ? JSON.stringify(withoutLimit(totals.shownArgs))
    : undefined;
  // The view shows this filter once the list's first block and the totals answered it.
  const painted = listFilter === key && totalsFilter === key ? key : undefined;

  const entryWords = (item: HoursItem) =>
    t('hoursOffice.entryWords', {
      person: item.userName ?? t('hoursOffice.unknownPerson'),
      day: item.von ? formatDate(item.von, language) : '–',
      hours: formatHours(item.stunden ?? 0, language),
    });

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

  const exportRequest = (format: 'csv' | 'ics'): ExportRequestInput => ({
    format,
    what: 'hours',
    ...(args.userId ? { userId: args.userId } : {}),
    ...(args.anlassId ? { anlassId: args.anlassId } : {}),
    ...(args.typId ? { typId: args.typId } : {}),
    ...(args.from ? { from: args.from } : {}),
    ...(args.until ? { until: args.until } : {}),
    ...(args.freigegeben !== undefined ? { approved: args.freigegeben } : {}),
    language: language === 'en' ? 'en' : 'de',
  });

  const personOptions: ComboboxOption[] = (people.data?.items ?? []).map((person) => ({
    id: person.id,
    label: `${person.nachname}, ${person.vorname}`,
    detail: person.mitgliednr,
  }));
  const occasionOptions: ComboboxOption[] = (occasions.data ?? []).map((occasion) => ({
    id: occasion.id,
    label: occasion.beschreibung ?? t('hours.dialog.occasionUnnamed'),
    detail: [
      occasion.typ ? t(`hours.anlassTyp.${occasion.typ}`, { defaultValue: occasion.typ }) : null,
      occasion.datum ? formatDate(occasion.datum, language) : null,
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  // Stable, so the list (memoised) paints again only when its rows or its filter change.
  const focusTaken = useCallback(() => setFocusId(null), []);
  const edit = useCallback(
    (item: HoursItem) => setDialog({ mode: 'edit', item, office: true }),
    [setDialog],
  );
  const askDelete = useCallback((item: HoursItem) => {
    setDeleteError(null);
    setDeleting(item);
  }, []);
  const fromBad = filter.from !== '' && !DAY.test(filter.from);
  const untilBad = filter.until !== '' && !DAY.test(filter.until);
  const shownTotals = totals.data;
  const own = settings.data;

  return (
    <section
      className="hours office-hours"
      aria-labelledby="workspace-title"
      data-testid="office-hours"
      data-painted={painted}
    >
      <header className="hours-head">
        <h1 id="workspace-title">{t('hours.title')}</h1>
        <HoursTabs />
        <button
          type="button"
          className="secondary"
          data-testid="office-occasions"
          onClick={() => setOccasionsOpen(true)}
        >
          {t('hoursOffice.occasions.open')}
        </button>
        <button
          type="button"
          ref={addButton}
          onClick={() => setDialog({ mode: 'create', office: true })}
          aria-keyshortcuts={inBrowser() ? 'N' : 'N Control+N'}
          title={t('hours.addKey')}
          data-testid="office-hours-add"
        >
          {t('hoursOffice.add')}
        </button>
      </header>
      <p className="visually-hidden" role="status" data-testid="hours-notice">
        {notice}
      </p>

      <form
        className="office-hours-filter"
        role="search"
        aria-label={t('hoursOffice.filter.label')}
        onSubmit={(event) => event.preventDefault()}
      >
        <Combobox
          label={t('hoursOffice.filter.person')}
          inputValue={filter.userText}
          onInputChange={(text) => {
            setPersonSearch(text);
            setFilter({ userText: text, ...(text.trim() === '' ? { userId: null } : {}) });
          }}
          options={personOptions}
          selectedId={filter.userId}
          onSelect={(option) => setFilter({ userId: option.id, userText: option.label })}
          loading={people.loading && personSearch.trim() !== ''}
          placeholder={t('hoursOffice.filter.everyone')}
          data-testid="office-filter-person"
          id="office-filter-person"
        />
        <Combobox
          label={t('hoursOffice.filter.occasion')}
          inputValue={filter.anlassText}
          onInputChange={(text) => {
            setOccasionSearch(text);
            setFilter({ anlassText: text, ...(text.trim() === '' ? { anlassId: null } : {}) });
          }}
          options={occasionOptions}
          selectedId={filter.anlassId}
          onSelect={(option) => setFilter({ anlassId: option.id, anlassText: option.label })}
          loading={occasions.loading && occasionSearch.trim() !== ''}
          placeholder={t('hoursOffice.filter.anyOccasion')}
          data-testid="office-filter-occasion"
          id="office-filter-occasion"
        />
        <label className="office-filter-select">
          <span>{t('hoursOffice.filter.type')}</span>
          <select
            value={filter.typId}
            data-testid="office-filter-type"
            onChange={(event) => setFilter({ typId: event.target.value })}
          >
            <option value="">{t('hoursOffice.filter.anyType')}</option>
            {(types.data ?? []).map((type) => (
              <option key={type.id} value={type.id}>
                {type.bezeichnung ?? type.id}
                {type.aktiv ? '' : ` (${t('hoursOffice.filter.inactive')})`}
              </option>
            ))}
          </select>
        </label>
        <DateField
          label={t('hoursOffice.filter.from')}
          value={filter.from}
          error={fromBad ? t('hoursOffice.filter.badDay') : undefined}
          data-testid="office-filter-from"
          className="office-filter-day"
          onValueChange={(from) => setFilter({ from })}
        />
        <DateField
          label={t('hoursOffice.filter.until')}
          value={filter.until}
          error={untilBad ? t('hoursOffice.filter.badDay') : undefined}
          data-testid="office-filter-until"
          className="office-filter-day"
          onValueChange={(until) => setFilter({ until })}
        />
        <label className="office-filter-select">
          <span>{t('hoursOffice.filter.state')}</span>
          <select
            value={filter.state}
            data-testid="office-filter-state"
            onChange={(event) =>
              setFilter({ state: event.target.value as OfficeHoursFilter['state'] })
            }
          >
            <option value="">{t('hoursOffice.filter.anyState')}</option>
            <option value="approved">{t('hours.approved')}</option>
            <option value="open">{t('hours.open')}</option>
          </select>
        </label>
      </form>

      <div className="office-hours-bar">
        {own ? (
          <p className="hint office-hours-settings" data-testid="office-hours-settings">
            {t('hoursOffice.settings.line', {
              types: own.activeTypes.map((type) => type.bezeichnung ?? type.id).join(', ') || '–',
            })}
            {own.freigabeErforderlich === true
              ? ` ${t('hoursOffice.settings.approvalNeeded')}`
              : ''}
            {own.eigeneStundenErfassen === false ? ` ${t('hoursOffice.settings.noOwn')}` : ''}
          </p>
        ) : null}

        <div className="hours-exports" role="group" aria-label={t('hoursOffice.export.label')}>
          <ExportButton
            label={t('hoursOffice.export.csv')}
            data-testid="export-office-hours-csv"
            request={() => exportRequest('csv')}
          />
          <ExportButton
            label={t('hoursOffice.export.ics')}
            data-testid="export-office-hours-ics"
            request={() => exportRequest('ics')}
          />
        </div>
        <button
          type="button"
          className="quiet office-filter-reset"
          data-testid="office-filter-reset"
          onClick={() => {
            setPersonSearch('');
            setOccasionSearch('');
            resetFilter();
          }}
        >
          {t('hoursOffice.filter.reset')}
        </button>
      </div>

      <div className="office-hours-body">
        <div className="office-hours-main">
          {entries.error ? (
            <p className="form-error" role="alert">
              {errorText(entries.error, language)}
            </p>
          ) : null}
          {entries.head && total === 0 ? (
            <div
              className="hours-empty"
              data-testid="office-hours-empty"
              data-total={0}
              data-filter={listFilter}
            >
              <p>{t('hoursOffice.empty')}</p>
            </div>
          ) : (
            <OfficeHoursList
              total={total}
              itemAt={entries.itemAt}
              filterKey={listFilter}
              onRange={onRange}
              focusId={focusId}
              onFocusTaken={focusTaken}
              onEdit={edit}
              onDelete={askDelete}
            />
          )}
          <p className="hint hours-keys" id="office-hours-keys">
            {t('hoursOffice.keys')}
          </p>
        </div>

        <OfficeTotals totals={shownTotals} filterKey={totalsFilter} />
      </div>

      <HoursDialog
        request={dialog}
        onClose={() => setDialog(null)}
        onSaved={(message, _day, id) => {
          setDialog(null);
          setNotice(message);
          setFocusId(id);
        }}
      />
      <OccasionsDialog open={occasionsOpen} onClose={() => setOccasionsOpen(false)} />
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
