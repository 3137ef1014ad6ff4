// Adding or changing an hours entry: day, start, end (optional), hours (from the times unless
// typed), the occasion (searched, or a new one: kind, description, day), the type, kilometres
// and a remark. Checked with the contract's schemas before anything is queued, errors beside
// their fields, nothing typed lost; a new occasion is created first and the entry uses its id
// (local-… offline), once even when the entry itself is then refused. The office's form
// (`office`) names the person the entry is for (searched among everyone) and may approve it;
// the own hour settings say which types take new entries and which one is preset.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANLASS_TYPES, type HoursItem } from '../../contract';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { DateField, TimeField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField, TextareaField } from '../../components/Field';
import { checkCommand, sendCommand, useQuery } from '../../data';
import { errorText } from '../../errors';
import { showDay } from '../../date-entry';
import { formatDate, formatHours, serviceDay } from '../../format';
import {
  amountText,
  anlassArgs,
  createArgs,
  draftOf,
  FIELD_OF_ANLASS_PATH,
  FIELD_OF_PATH,
  FIELD_OF_PROBLEM,
  placeErrors,
  type DraftErrors,
  emptyDraft,
  hoursBetween,
  localProblems,
  parseAmount,
  updateArgs,
  type HoursDraft,
} from './draft';

/** What the dialog opens with: a new entry (maybe a suggestion's draft) or an entry to change. */
export type HoursDialogRequest =
  | { mode: 'create'; draft?: Partial<HoursDraft>; suggestionDateId?: string; office?: boolean }
  | { mode: 'edit'; item: HoursItem; office?: boolean };

/** A stand-in occasion id, only to check the entry's arguments before a new occasion exists. */
const PLACEHOLDER_ANLASS = 'local-00000000-0000-4000-8000-000000000000';

export function HoursDialog({
  request,
  onClose,
  onSaved,
}: {
  request: HoursDialogRequest | null;
  onClose(): void;
  onSaved(message: string, day: string, id: string): void;
}) {
  return (
    <Dialog
      open={request !== null}
      onClose={onClose}
      labelledBy="hours-dialog-title"
      className="hours-dialog"
    >
      {request ? <HoursForm request={request} onClose={onClose} onSaved={onSaved} /> : null}
    </Dialog>
  );
}

function HoursForm({
  request,
  onClose,
  onSaved,
}: {
  request: HoursDialogRequest;
  onClose(): void;
  onSaved(message: string, day: string, id: string): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const before = useMemo(
    () =>
      request.mode === 'edit'
        ? draftOf(request.item, language)
        : { ...emptyDraft(), ...(request.draft ?? {}) },
    // The language of the numbers is the one the dialog opened in.
    [request],
  );
  const [draft, setDraft] = useState<HoursDraft>(before);
  // Hours follow the times until they are typed themselves (an edit starts with its own hours).
  const [hoursTyped, setHoursTyped] = useState(request.mode === 'edit' || !!request.draft?.stunden);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A new occasion made by an earlier try of this dialog (the entry was refused after it).
  const createdAnlass = useRef<string | null>(null);
  const idBase = useId();

  const office = request.office === true;
  const types = useQuery('hours.types', { activeOnly: true });
  const settings = useQuery('hours.settings', {});
  const [search, setSearch] = useState('');
  const occasions = useQuery('hours.occasions', { search: search || undefined, limit: 30 });
  const [personSearch, setPersonSearch] = useState('');
  const people = useQuery(
    'personnel.list',
    { search: personSearch.trim() || undefined, limit: 20 },
    { enabled: office },
  );

  // A new entry takes the own settings' type when it is active, else the first active type
  // (the service needs one).
  useEffect(() => {
    if (draft.typId || !types.data?.length) return;
    const preset = settings.data?.standardTypId;
    const typId = types.data.some((type) => type.id === preset) ? preset! : types.data[0]!.id;
    setDraft((d) => (d.typId ? d : { ...d, typId }));
  }, [types.data, settings.data, draft.typId]);

  const change = (patch: Partial<HoursDraft>) => {
    setDraft((current) => {
      const next = { ...current, ...patch };
      if (!hoursTyped && ('start' in patch || 'end' in patch || 'day' in patch)) {
        const computed = hoursBetween(next);
        if (computed !== null) next.stunden = amountText(computed, language);
      }
      return next;
    });
    const cleared = Object.keys(patch) as (keyof HoursDraft)[];
    // Hours that follow the times are new too: their old error goes with them.
    if (!hoursTyped && ('start' in patch || 'end' in patch || 'day' in patch))
      cleared.push('stunden');
    if (cleared.some((key) => errors[key])) {
      const next = { ...errors };
      for (const key of cleared) delete next[key];
      setErrors(next);
      // The last marked field mended: "check the marked fields" has nothing left to point at.
      if (Object.keys(next).length === 0)
        setFormError((shown) => (shown === t('hours.dialog.fixFields') ? null : shown));
    }
  };

  const options: ComboboxOption[] = (occasions.data ?? []).map((occasion) => ({
    id: occasion.id,
    label: occasion.beschreibung ?? t('hours.dialog.occasionUnnamed'),
    detail: [
      occasion.typ ? t(`hours.anlassTyp.${occasion.typ}`, { defaultValue: occasion.typ }) : null,
      occasion.datum ? formatDate(occasion.datum, language) : null,
    ]
      .filter(Boolean)
      .join(' · '),
  }));

  const personOptions: ComboboxOption[] = (people.data?.items ?? []).map((person) => ({
    id: person.id,
    label: `${person.nachname}, ${person.vorname}`,
    detail: [person.mitgliednr, person.ort].filter(Boolean).join(' · '),
  }));

  const computed = hoursBetween(draft);
  const typed = parseAmount(draft.stunden);

  const save = async () => {
    setFormError(null);
    // 1. What the contract cannot see: a time not typed is no date-time at all.
    const local: DraftErrors = {};
    for (const problem of localProblems(draft, office))
      local[FIELD_OF_PROBLEM[problem]] = t(`hours.dialog.problem.${problem}`, {
        day: showDay(serviceDay(), language),
      });
    // 2. The contract's own rules, for the occasion and the entry, before anything is queued.
    const anlassId = draft.newAnlass
      ? (createdAnlass.current ?? PLACEHOLDER_ANLASS)
      : (draft.anlassId ?? PLACEHOLDER_ANLASS);
    const anlassCheck =
      draft.newAnlass && !createdAnlass.current
        ? placeErrors(
            checkCommand('helferstunden_anlass.create', anlassArgs(draft)) ?? {},
            FIELD_OF_ANLASS_PATH,
          )
        : { errors: {}, rest: [] };
    let entryCheck: { errors: DraftErrors; rest: string[] } = { errors: {}, rest: [] };
    if (Object.keys(local).length === 0) {
      if (request.mode === 'create') {
        const args = createArgs(draft, anlassId, office);
        entryCheck = placeErrors(checkCommand('helferstunden.create', args) ?? {}, FIELD_OF_PATH);
      } else {
        const args = updateArgs(request.item.id, before, draft, anlassId, office);
        if (args === null && !draft.newAnlass) {
          onClose();
          return;
        }
        if (args)
          entryCheck = placeErrors(checkCommand('helferstunden.update', args) ?? {}, FIELD_OF_PATH);
      }
    }
    const all: DraftErrors = { ...entryCheck.errors, ...anlassCheck.errors, ...local };
    const rest = [...entryCheck.rest, ...anlassCheck.rest];
    if (Object.keys(all).length > 0 || rest.length > 0) {
      setErrors(all);
      setFormError([t('hours.dialog.fixFields'), ...rest].join(' '));
      return;
    }

    setBusy(true);
    try {
      // 3. A new occasion first: the entry then uses its id (local-… offline).
      let useAnlass = anlassId;
      if (draft.newAnlass && !createdAnlass.current) {
        const made = await sendCommand('helferstunden_anlass.create', anlassArgs(draft));
        if (!made.ok) {
          const { errors: fieldErrors, rest: other } = placeErrors(
            made.fields,
            FIELD_OF_ANLASS_PATH,
          );
          setErrors(fieldErrors);
          setFormError([errorText(made.error, language), ...other].join(' '));
          return;
        }
        createdAnlass.current = made.value.id;
        useAnlass = made.value.id;
      }
      const result =
        request.mode === 'create'
          ? await sendCommand('helferstunden.create', createArgs(draft, useAnlass, office))
          : await sendCommand(
              'helferstunden.update',
              updateArgs(request.item.id, before, draft, useAnlass, office) ?? {
                id: request.item.id,
                relationships: {
                  anlass: { data: { type: 'helferstunden_anlass', id: useAnlass } },
                },
              },
            );
      if (!result.ok) {
        const { errors: fieldErrors, rest: other } = placeErrors(result.fields, FIELD_OF_PATH);
        setErrors(fieldErrors);
        setFormError([errorText(result.error, language), ...other].join(' '));
        return;
      }
      onSaved(
        t(request.mode === 'create' ? 'hours.saved.created' : 'hours.saved.changed', {
          // Whose entry it is, where the office enters them for others.
          ...(office && draft.userText ? { context: 'for', person: draft.userText } : {}),
          day: formatDate(draft.day, language),
          hours: formatHours(parseAmount(draft.stunden) ?? 0, language),
        }),
        draft.day,
        request.mode === 'create' ? result.value.id : request.item.id,
      );
    } finally {
      setBusy(false);
    }
  };

  const title =
    request.mode === 'create' ? t('hours.dialog.createTitle') : t('hours.dialog.editTitle');
  const typeChoices = types.data ?? [];
  const typKnown = typeChoices.some((type) => type.id === draft.typId);

  return (
    <form
      noValidate
      className="hours-form"
      data-testid="hours-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id="hours-dialog-title">{title}</h2>
      {office ? (
        <Combobox
          label={t('hoursOffice.dialog.person')}
          inputValue={draft.userText}
          onInputChange={(text) => {
            setPersonSearch(text);
            change({ userText: text, userId: null });
          }}
          options={personOptions}
          selectedId={draft.userId}
          onSelect={(option) => change({ userId: option.id, userText: option.label })}
          error={errors.userText}
          required
          loading={people.loading}
          placeholder={t('hoursOffice.dialog.personSearch')}
          data-testid="hours-person"
          id={`${idBase}-person`}
          className="hours-person"
        />
      ) : null}
      <div className="hours-form-grid">
        <DateField
          label={t('hours.dialog.day')}
          required
          value={draft.day}
          error={errors.day}
          data-testid="hours-date"
          className="hours-field-day"
          onValueChange={(day) => change({ day })}
        />
        <TimeField
          label={t('hours.dialog.start')}
          required
          value={draft.start}
          error={errors.start}
          data-testid="hours-start"
          onValueChange={(start) => change({ start })}
        />
        <TimeField
          label={t('hours.dialog.end')}
          value={draft.end}
          error={errors.end}
          hint={
            draft.end && draft.start && draft.end <= draft.start
              ? t('hours.dialog.nextDay')
              : undefined
          }
          data-testid="hours-end"
          onValueChange={(end) => change({ end })}
        />
        <InputField
          label={t('hours.dialog.stunden')}
          required
          inputMode="decimal"
          value={draft.stunden}
          error={errors.stunden}
          hint={
            computed !== null && typed !== null && Math.abs(computed - typed) > 0.001
              ? t('hours.dialog.fromTimes', { hours: formatHours(computed, language) })
              : undefined
          }
          data-testid="hours-stunden"
          onChange={(event) => {
            setHoursTyped(event.target.value.trim() !== '');
            change({ stunden: event.target.value });
          }}
        />
      </div>

      <fieldset className="hours-occasion">
        <legend>{t('hours.dialog.occasion')}</legend>
        {draft.newAnlass ? (
          <div className="hours-form-grid hours-new-occasion">
            <SelectField
              label={t('hours.dialog.occasionTyp')}
              value={draft.anlassTyp}
              error={errors.anlassTyp}
              data-testid="hours-occasion-typ"
              onChange={(event) => change({ anlassTyp: event.target.value })}
            >
              {ANLASS_TYPES.map((typ) => (
                <option key={typ} value={typ}>
                  {t(`hours.anlassTyp.${typ}`)}
                </option>
              ))}
            </SelectField>
            <InputField
              label={t('hours.dialog.occasionBeschreibung')}
              required
              value={draft.anlassBeschreibung}
              error={errors.anlassBeschreibung}
              className="hours-field-wide"
              data-testid="hours-occasion-beschreibung"
              onChange={(event) => change({ anlassBeschreibung: event.target.value })}
            />
            <DateField
              label={t('hours.dialog.occasionDatum')}
              value={draft.anlassDatum}
              error={errors.anlassDatum}
              data-testid="hours-occasion-datum"
              onValueChange={(anlassDatum) => change({ anlassDatum })}
            />
          </div>
        ) : (
          <Combobox
            label={t('hours.dialog.occasionPick')}
            inputValue={draft.anlassText}
            onInputChange={(text) => {
              setSearch(text);
              change({ anlassText: text, anlassId: null });
            }}
            options={options}
            selectedId={draft.anlassId}
            onSelect={(option) => change({ anlassId: option.id, anlassText: option.label })}
            error={errors.anlassText}
            required
            loading={occasions.loading}
            placeholder={t('hours.dialog.occasionSearch')}
            data-testid="hours-occasion"
            id={`${idBase}-occasion`}
          />
        )}
        <button
          type="button"
          className="quiet hours-occasion-toggle"
          data-testid="hours-new-occasion"
          aria-pressed={draft.newAnlass}
          disabled={createdAnlass.current !== null}
          onClick={() =>
            change({
              newAnlass: !draft.newAnlass,
              anlassDatum: draft.anlassDatum || draft.day,
            })
          }
        >
          {draft.newAnlass ? t('hours.dialog.occasionExisting') : t('hours.dialog.occasionNew')}
        </button>
      </fieldset>

      <div className="hours-form-grid">
        <SelectField
          label={t('hours.dialog.typ')}
          required
          value={draft.typId}
          error={errors.typId}
          data-testid="hours-typ"
          hint={
            settings.data && settings.data.activeTypes.length > 0
              ? t('hoursOffice.settings.typesHint', {
                  types: settings.data.activeTypes
                    .map((type) => type.bezeichnung ?? type.id)
                    .join(', '),
                })
              : undefined
          }
          onChange={(event) => change({ typId: event.target.value })}
        >
          {!draft.typId ? <option value="">{t('hours.dialog.typChoose')}</option> : null}
          {!typKnown && draft.typId ? (
            <option value={draft.typId}>
              {request.mode === 'edit' ? (request.item.typ ?? draft.typId) : draft.typId}
            </option>
          ) : null}
          {typeChoices.map((type) => (
            <option key={type.id} value={type.id}>
              {type.bezeichnung ?? type.id}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t('hours.dialog.km')}
          inputMode="decimal"
          value={draft.km}
          error={errors.km}
          data-testid="hours-km"
          onChange={(event) => change({ km: event.target.value })}
        />
      </div>
      <TextareaField
        label={t('hours.dialog.bemerkung')}
        value={draft.bemerkung}
        error={errors.bemerkung}
        rows={2}
        data-testid="hours-bemerkung"
        onChange={(event) => change({ bemerkung: event.target.value })}
      />
      {office ? (
        <label className="check hours-approved-check">
          <input
            type="checkbox"
            checked={draft.freigegeben}
            data-testid="hours-freigegeben"
            onChange={(event) => change({ freigegeben: event.target.checked })}
          />
          {t('hoursOffice.dialog.approved')}
        </label>
      ) : null}
      {formError ? (
        <p className="form-error" role="alert" data-testid="hours-form-error">
          {formError}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid="hours-save"
        >
          {request.mode === 'create' ? t('hours.dialog.create') : t('hours.dialog.save')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('hours.dialog.cancel')}
        </button>
      </div>
    </form>
  );
}
