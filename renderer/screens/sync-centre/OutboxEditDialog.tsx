// Editing an operation of the outbox (most often one the service refused): its attributes as
// fields (text, numbers, yes/no, dates and times in Europe/Berlin); links of known kinds with a
// picker of what the replica offers (an hours entry's type: the active ones; its occasion:
// searched), the others shown but not changed. Checked with the command's own schema before it
// is sent (outbox.edit), the core's refusal shown beside the fields; what was typed stays.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commands, type CommandName, type OutboxEntry } from '../../contract';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { DateField, TimeField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { Field, InputField, SelectField } from '../../components/Field';
import { checkCommand, sendCommand, useQuery, type FieldErrors } from '../../data';
import { ISO_DAY, showDay, TIME_OF_DAY } from '../../date-entry';
import { errorText } from '../../errors';
import { formatDate, serviceDay, serviceTime, toServiceDateTime } from '../../format';
import {
  fieldName,
  isDateText,
  isDateTimeText,
  operationText,
  subjectDetail,
  valueText,
  words,
} from './describe';

type Draft =
  | { kind: 'text'; text: string; wasNull: boolean }
  | { kind: 'number'; text: string; wasNull: boolean }
  | { kind: 'boolean'; checked: boolean }
  | { kind: 'date'; day: string }
  | { kind: 'dateTime'; day: string; time: string }
  | { kind: 'fixed'; value: unknown };

function draftOf(value: unknown): Draft {
  if (typeof value === 'boolean') return { kind: 'boolean', checked: value };
  if (typeof value === 'number') return { kind: 'number', text: String(value), wasNull: false };
  if (isDateTimeText(value))
    return { kind: 'dateTime', day: serviceDay(value), time: serviceTime(value) };
  if (isDateText(value)) return { kind: 'date', day: value };
  if (typeof value === 'string') return { kind: 'text', text: value, wasNull: false };
  if (value === null) return { kind: 'text', text: '', wasNull: true };
  return { kind: 'fixed', value };
}

/** "1,5" and "1.5" both mean one and a half. */
function parseNumber(text: string): number | null {
  const normal = text.trim().replace(',', '.');
  if (normal === '' || !/^-?\d*(\.\d+)?$/.test(normal)) return null;
  const value = Number(normal);
  return Number.isFinite(value) ? value : null;
}

type Args = Record<string, unknown> & { attributes?: Record<string, unknown> };

/** Links a person may change here, per command, with the picker each gets. */
type Picker = 'hourType' | 'occasion';
const PICKERS: Partial<Record<string, Record<string, Picker>>> = {
  'helferstunden.create': { typ: 'hourType', anlass: 'occasion' },
  'helferstunden.update': { typ: 'hourType', anlass: 'occasion' },
};

/** A to-one link's target: `{ data: { type, id } }`, else null. */
function targetOf(value: unknown): { type: string; id: string } | null {
  const data = (value as { data?: unknown } | null)?.data as { type?: unknown; id?: unknown };
  return data && typeof data.type === 'string' && typeof data.id === 'string'
    ? { type: data.type, id: data.id }
    : null;
}

/** The error of a link's path (`relationships.typ`, `relationships.typ.data.id`, …). */
function linkError(errors: FieldErrors, name: string): string | null {
  const prefix = `relationships.${name}`;
  const found = Object.entries(errors).find(
    ([path]) => path === prefix || path.startsWith(`${prefix}.`),
  );
  return found ? found[1] : null;
}

export function OutboxEditDialog({
  entry,
  onClose,
  onSaved,
}: {
  entry: OutboxEntry | null;
  onClose(): void;
  onSaved(entry: OutboxEntry): void;
}) {
  return (
    <Dialog
      open={entry !== null}
      onClose={onClose}
      labelledBy="outbox-edit-title"
      className="outbox-edit"
    >
      {entry ? <EditForm key={entry.id} entry={entry} onClose={onClose} onSaved={onSaved} /> : null}
    </Dialog>
  );
}

function EditForm({
  entry,
  onClose,
  onSaved,
}: {
  entry: OutboxEntry;
  onClose(): void;
  onSaved(entry: OutboxEntry): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const formId = useId();
  const args = (entry.arguments ?? {}) as Args;
  const attributes = args.attributes ?? {};
  // Values left out of the operation (the service refused one it may not be sent).
  const [omitted, setOmitted] = useState<Set<string>>(() => new Set());
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() =>
    Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, draftOf(value)])),
  );
  const relationships = (args.relationships ?? {}) as Record<string, unknown>;
  const pickers = PICKERS[entry.command] ?? {};
  const pickable = Object.keys(relationships).filter(
    (name) => pickers[name] !== undefined && targetOf(relationships[name]) !== null,
  );
  // The chosen target of each link with a picker (its id; the type stays the link's own).
  const [links, setLinks] = useState<Record<string, string>>(() =>
    Object.fromEntries(pickable.map((name) => [name, targetOf(relationships[name])!.id])),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (key: string, draft: Draft) => setDrafts((all) => ({ ...all, [key]: draft }));
  const setLink = (name: string, id: string) => {
    setLinks((all) => ({ ...all, [name]: id }));
    if (linkError(errors, name))
      setErrors((all) =>
        Object.fromEntries(
          Object.entries(all).filter(
            ([path]) =>
              path !== `relationships.${name}` && !path.startsWith(`relationships.${name}.`),
          ),
        ),
      );
  };

  /** The edited arguments, or the fields that are not even numbers. */
  const build = (): { args: Args } | { errors: FieldErrors } => {
    const next: Record<string, unknown> = {};
    const wrong: FieldErrors = {};
    for (const [key, draft] of Object.entries(drafts)) {
      if (omitted.has(key)) continue;
      switch (draft.kind) {
        case 'boolean':
          next[key] = draft.checked;
          break;
        case 'number': {
          if (draft.text.trim() === '' && draft.wasNull) next[key] = null;
          else {
            const value = parseNumber(draft.text);
            if (value === null) wrong[`attributes.${key}`] = t('syncCentre.edit.notANumber');
            else next[key] = value;
          }
          break;
        }
        case 'text':
          next[key] = draft.text === '' && draft.wasNull ? null : draft.text;
          break;
        case 'date':
          if (draft.day !== '' && !ISO_DAY.test(draft.day))
            wrong[`attributes.${key}`] = t('syncCentre.edit.notADay', {
              day: showDay(serviceDay(), i18n.language),
            });
          else next[key] = draft.day;
          break;
        case 'dateTime':
          // Both emptied: sent as it is, for the command's own check to judge.
          if (draft.day === '' && draft.time === '') next[key] = '';
          else if (!ISO_DAY.test(draft.day) || !TIME_OF_DAY.test(draft.time))
            wrong[`attributes.${key}`] = t('syncCentre.edit.notADayAndTime', {
              day: showDay(serviceDay(), i18n.language),
            });
          else next[key] = toServiceDateTime(draft.day, draft.time);
          break;
        case 'fixed':
          next[key] = draft.value;
          break;
      }
    }
    if (Object.keys(wrong).length > 0) return { errors: wrong };
    if (pickable.length === 0) return { args: { ...args, attributes: next } };
    const picked = Object.fromEntries(
      pickable.map((name) => [
        name,
        { data: { type: targetOf(relationships[name])!.type, id: links[name] } },
      ]),
    );
    return { args: { ...args, attributes: next, relationships: { ...relationships, ...picked } } };
  };

  const save = async () => {
    setFormError(null);
    const built = build();
    if ('errors' in built) {
      setErrors(built.errors);
      setFormError(t('syncCentre.edit.fixFields'));
      return;
    }
    // The command's own schema first: its words (German too) beside the fields, nothing sent.
    if (Object.hasOwn(commands, entry.command)) {
      const refused = checkCommand(entry.command as CommandName, built.args as never);
      if (refused) {
        setErrors(refused);
        setFormError(t('syncCentre.edit.fixFields'));
        return;
      }
    }
    setBusy(true);
    const result = await sendCommand('outbox.edit', { id: entry.id, arguments: built.args });
    setBusy(false);
    if (result.ok) {
      onSaved(result.value);
      return;
    }
    setErrors(result.fields);
    setFormError(errorText(result.error, language));
  };

  const unplaced = Object.entries(errors).filter(
    ([path]) =>
      !(path.startsWith('attributes.') && path.slice(11) in drafts) &&
      !pickable.some(
        (name) => path === `relationships.${name}` || path.startsWith(`relationships.${name}.`),
      ),
  );
  const fixed = Object.entries(args).filter(
    ([key]) => key !== 'attributes' && key !== 'relationships',
  );
  const fixedLinks = Object.entries(relationships).filter(([name]) => !pickable.includes(name));
  const detail = subjectDetail(t, entry.subject);

  return (
    <form
      id={formId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      data-testid="outbox-edit-form"
    >
      <h2 id="outbox-edit-title">{t('syncCentre.edit.title')}</h2>
      <p className="outbox-edit-what">
        <strong>{operationText(t, entry, language)}</strong>
        {detail ? <span className="muted"> · {detail}</span> : null}
      </p>
      {entry.error ? (
        <p className="reason" data-testid="outbox-edit-rejected">
          {t('syncCentre.edit.rejected', { words: words(entry.error.message, language) })}
        </p>
      ) : null}
      <p className="hint">{t('syncCentre.edit.intro')}</p>

      {Object.keys(drafts).length === 0 ? (
        <p className="muted">{t('syncCentre.edit.noAttributes')}</p>
      ) : (
        <div className="outbox-edit-fields">
          {Object.entries(drafts).map(([key, draft]) => (
            <div
              key={key}
              className="outbox-edit-field"
              data-omitted={omitted.has(key) || undefined}
            >
              {omitted.has(key) ? (
                <div className="field">
                  <span className="outbox-edit-fixed">{fieldName(t, key)}</span>
                  <span className="muted">{t('syncCentre.edit.omitted')}</span>
                  {errors[`attributes.${key}`] ? (
                    <span className="field-error">{errors[`attributes.${key}`]}</span>
                  ) : null}
                </div>
              ) : (
                <DraftField
                  name={key}
                  draft={draft}
                  error={errors[`attributes.${key}`] ?? null}
                  onChange={(next) => set(key, next)}
                />
              )}
              <button
                type="button"
                className="quiet outbox-edit-omit"
                data-testid={`outbox-edit-omit-${key}`}
                aria-pressed={omitted.has(key)}
                aria-label={`${omitted.has(key) ? t('syncCentre.edit.include') : t('syncCentre.edit.omit')}: ${fieldName(t, key)}`}
                onClick={() =>
                  setOmitted((all) => {
                    const next = new Set(all);
                    if (next.has(key)) next.delete(key);
                    else next.add(key);
                    return next;
                  })
                }
              >
                {omitted.has(key) ? t('syncCentre.edit.include') : t('syncCentre.edit.omit')}
              </button>
            </div>
          ))}
        </div>
      )}

      {pickable.length > 0 ? (
        <div className="outbox-edit-fields outbox-edit-pickers">
          {pickable.map((name) =>
            pickers[name] === 'hourType' ? (
              <HourTypePicker
                key={name}
                name={name}
                value={links[name] ?? ''}
                error={linkError(errors, name)}
                onChange={(id) => setLink(name, id)}
              />
            ) : (
              <OccasionPicker
                key={name}
                name={name}
                value={links[name] ?? ''}
                text={entry.subject?.kind === 'helferstunden' ? (entry.subject.label ?? '') : ''}
                error={linkError(errors, name)}
                onChange={(id) => setLink(name, id)}
              />
            ),
          )}
        </div>
      ) : null}

      {fixed.length + fixedLinks.length > 0 ? (
        <details className="outbox-edit-links">
          <summary>{t('syncCentre.edit.readOnly')}</summary>
          <dl className="facts">
            {fixed.map(([key, value]) => (
              <FactRow key={key} name={fieldName(t, key)} value={valueText(t, value, language)} />
            ))}
            {fixedLinks.map(([key, value]) => (
              <FactRow
                key={`r-${key}`}
                name={fieldName(t, key)}
                value={valueText(t, value, language)}
              />
            ))}
          </dl>
        </details>
      ) : null}

      {unplaced.length > 0 ? (
        <ul className="form-error outbox-edit-unplaced">
          {unplaced.map(([path, text]) => (
            <li key={path}>
              {path ? `${path}: ` : ''}
              {text}
            </li>
          ))}
        </ul>
      ) : null}
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid="outbox-edit-save"
        >
          {t('syncCentre.edit.save')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('syncCentre.edit.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * An hours entry's type: the active types of the replica (the service takes new entries only with
 * one); the type the operation has, when no longer active, stays shown as such until changed.
 */
function HourTypePicker(props: {
  name: string;
  value: string;
  error: string | null;
  onChange(id: string): void;
}) {
  const { t } = useTranslation();
  const types = useQuery('hours.types', { activeOnly: false });
  const all = types.data ?? [];
  const current = all.find((type) => type.id === props.value);
  const choices = all.filter((type) => type.aktiv);
  return (
    <SelectField
      label={fieldName(t, props.name)}
      value={props.value}
      error={props.error}
      data-testid={`outbox-edit-${props.name}`}
      onChange={(event) => props.onChange(event.target.value)}
    >
      {current?.aktiv ? null : (
        <option value={props.value}>
          {types.data
            ? t('syncCentre.edit.inactive', { name: current?.bezeichnung ?? props.value })
            : props.value}
        </option>
      )}
      {choices.map((type) => (
        <option key={type.id} value={type.id}>
          {type.bezeichnung ?? type.id}
        </option>
      ))}
    </SelectField>
  );
}

/** An hours entry's occasion: searched in the replica's occasions as one types. */
function OccasionPicker(props: {
  name: string;
  value: string;
  text: string;
  error: string | null;
  onChange(id: string): void;
}) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(props.text);
  const [search, setSearch] = useState('');
  const occasions = useQuery('hours.occasions', { search: search || undefined, limit: 30 });
  const options: ComboboxOption[] = (occasions.data ?? []).map((occasion) => ({
    id: occasion.id,
    label: occasion.beschreibung ?? occasion.id,
    detail: [
      occasion.typ ? t(`hours.anlassTyp.${occasion.typ}`, { defaultValue: occasion.typ }) : null,
      occasion.datum ? formatDate(occasion.datum, i18n.language) : null,
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  return (
    <Combobox
      label={fieldName(t, props.name)}
      inputValue={text}
      onInputChange={(next) => {
        setText(next);
        setSearch(next);
      }}
      options={options}
      selectedId={props.value}
      onSelect={(option) => {
        setText(option.label);
        props.onChange(option.id);
      }}
      error={props.error}
      hint={t('syncCentre.edit.occasionHint')}
      loading={occasions.loading}
      data-testid={`outbox-edit-${props.name}`}
    />
  );
}

function FactRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd className="mono">{value}</dd>
    </>
  );
}

function DraftField({
  name,
  draft,
  error,
  onChange,
}: {
  name: string;
  draft: Draft;
  error: string | null;
  onChange(draft: Draft): void;
}) {
  const { t, i18n } = useTranslation();
  const label = fieldName(t, name);
  const testId = `outbox-edit-${name}`;
  switch (draft.kind) {
    case 'boolean':
      return (
        <Field label={label} error={error} data-testid={`${testId}-field`}>
          {(control) => (
            <span className="check">
              <input
                {...control}
                type="checkbox"
                checked={draft.checked}
                data-testid={testId}
                onChange={(event) => onChange({ ...draft, checked: event.target.checked })}
              />
              <span aria-hidden="true">{t('syncCentre.edit.yes')}</span>
            </span>
          )}
        </Field>
      );
    case 'number':
      return (
        <InputField
          label={label}
          error={error}
          inputMode="decimal"
          value={draft.text}
          data-testid={testId}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
      );
    case 'text':
      return (
        <InputField
          label={label}
          error={error}
          value={draft.text}
          placeholder={draft.wasNull ? t('syncCentre.edit.empty') : undefined}
          data-testid={testId}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
      );
    case 'date':
      return (
        <DateField
          label={label}
          error={error}
          value={draft.day}
          data-testid={testId}
          onValueChange={(day) => onChange({ ...draft, day })}
        />
      );
    case 'dateTime':
      return (
        <fieldset className="outbox-edit-datetime">
          <legend>{label}</legend>
          <DateField
            label={t('syncCentre.edit.date')}
            error={error}
            value={draft.day}
            data-testid={`${testId}-date`}
            onValueChange={(day) => onChange({ ...draft, day })}
          />
          <TimeField
            label={t('syncCentre.edit.time')}
            value={draft.time}
            data-testid={`${testId}-time`}
            onValueChange={(time) => onChange({ ...draft, time })}
          />
        </fieldset>
      );
    case 'fixed':
      return (
        <div className="field">
          <span className="outbox-edit-fixed">{label}</span>
          <span className="mono">{valueText(t, draft.value, i18n.language)}</span>
        </div>
      );
  }
}
