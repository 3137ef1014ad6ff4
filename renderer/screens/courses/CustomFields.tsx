// The custom fields of a course (the types the service defines: text, number, checkbox, date,
// select): listed with their values; added, changed and deleted (with a confirmation) through
// customfield.create/update/delete, checked with the contract's rules before anything is queued.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DateField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { Field, InputField, SelectField } from '../../components/Field';
import { FIELD_TYPES, type CourseDetail } from '../../contract';
import { checkCommand, sendCommand, type FieldErrors } from '../../data';
import { errorText } from '../../errors';
import { formatDate } from '../../format';
import { NotSent } from './bits';

type FieldType = (typeof FIELD_TYPES)[number];
type CustomField = CourseDetail['customfields'][number];

interface Draft {
  name: string;
  field_type: FieldType;
  options: string[];
  value: string;
  required: boolean;
}

function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

function draftOf(field: CustomField | null): Draft {
  if (!field) return { name: '', field_type: 'text', options: [], value: '', required: false };
  const options = field.attributes.options;
  const value = field.attributes.value;
  return {
    name: field.name ?? '',
    field_type: isFieldType(field.fieldType) ? field.fieldType : 'text',
    options: Array.isArray(options) ? options.map(String) : [],
    value: typeof value === 'string' ? value : value == null ? '' : String(value),
    required: field.attributes.required === true,
  };
}

/** A value as the list shows it, by its type. */
function shownValue(field: CustomField, language: string, t: (key: string) => string): string {
  const draft = draftOf(field);
  if (draft.field_type === 'checkbox')
    return draft.value === '1' ? t('courses.fields.yes') : t('courses.fields.no');
  if (draft.value === '') return '—';
  if (draft.field_type === 'date') return formatDate(draft.value, language);
  return draft.value;
}

export function CustomFields({ courseId, fields }: { courseId: string; fields: CustomField[] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [editing, setEditing] = useState<CustomField | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CustomField | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nextPosition =
    fields.reduce((max, field) => {
      const position = field.attributes.position;
      return typeof position === 'number' && position > max ? position : max;
    }, -1) + 1;

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    const result = await sendCommand('customfield.delete', { courseId, id: deleting.id });
    setBusy(false);
    if (result.ok) {
      setDeleting(null);
      setDeleteError(null);
    } else setDeleteError(errorText(result.error, language));
  };

  return (
    <section className="custom-fields" aria-labelledby="custom-fields-title">
      <div className="section-head">
        <h3 id="custom-fields-title">{t('courses.fields.title')}</h3>
        <button
          type="button"
          className="secondary"
          onClick={() => setEditing('new')}
          data-testid="customfield-add"
        >
          + {t('courses.fields.add')}
        </button>
      </div>
      {fields.length === 0 ? (
        <p className="muted" data-testid="customfields-empty">
          {t('courses.fields.none')}
        </p>
      ) : (
        <table className="fields-table">
          <thead>
            <tr>
              <th scope="col">{t('courses.fields.name')}</th>
              <th scope="col">{t('courses.fields.type')}</th>
              <th scope="col">{t('courses.fields.value')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('courses.fields.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => (
              <tr key={field.id} data-testid="customfield-row" data-customfield-id={field.id}>
                <th scope="row">
                  {field.name || '—'}
                  {field.attributes.required === true ? (
                    <span className="muted"> ({t('courses.fields.requiredShort')})</span>
                  ) : null}{' '}
                  <NotSent state={field.localState} />
                </th>
                <td>
                  {isFieldType(field.fieldType)
                    ? t(`courses.fields.types.${field.fieldType}`)
                    : (field.fieldType ?? '—')}
                </td>
                <td data-testid="customfield-value">{shownValue(field, language, t)}</td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="quiet"
                    onClick={() => setEditing(field)}
                    data-testid="customfield-edit"
                  >
                    {t('courses.fields.edit')}
                    <span className="visually-hidden">: {field.name}</span>
                  </button>
                  <button
                    type="button"
                    className="quiet danger-text"
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(field);
                    }}
                    data-testid="customfield-delete"
                  >
                    {t('courses.fields.delete')}
                    <span className="visually-hidden">: {field.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FieldDialog
        courseId={courseId}
        field={editing === 'new' ? null : editing}
        open={editing !== null}
        position={nextPosition}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('courses.fields.deleteTitle')}
        text={t('courses.fields.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('courses.fields.deleteConfirm')}
        destructive
        busy={busy}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
        data-testid="customfield-delete-dialog"
      />
    </section>
  );
}

/** Only what differs from the field as it is (a PATCH sends only changed attributes). */
function changed(before: Draft, after: Draft): Partial<Draft> {
  const change: Partial<Draft> = {};
  if (before.name !== after.name) change.name = after.name;
  if (before.field_type !== after.field_type) change.field_type = after.field_type;
  if (JSON.stringify(before.options) !== JSON.stringify(after.options))
    change.options = after.options;
  if (before.value !== after.value) change.value = after.value;
  if (before.required !== after.required) change.required = after.required;
  return change;
}

/** Errors per form field from the contract's paths (attributes.options.2 → the option's row). */
function errorsOf(fields: FieldErrors): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const [path, words] of Object.entries(fields)) {
    const key = path.startsWith('attributes.') ? path.slice('attributes.'.length) : '_form';
    mapped[key] = mapped[key] ? `${mapped[key]}; ${words}` : words;
  }
  return mapped;
}

function FieldDialog(props: {
  courseId: string;
  field: CustomField | null;
  open: boolean;
  position: number;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(null));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const { open, field } = props;

  useEffect(() => {
    if (!open) return;
    setDraft(draftOf(field));
    setErrors({});
    const frame = window.requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>('[data-testid="customfield-name"]')?.focus(),
    );
    return () => window.cancelAnimationFrame(frame);
    // A new opening (or another field) starts from the field as it is.
  }, [open, field]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((before) => ({ ...before, [key]: value }));

  const setType = (type: FieldType) =>
    setDraft((before) => {
      let value = before.value;
      if (type === 'checkbox' && value !== '1') value = '0';
      if (type !== 'checkbox' && before.field_type === 'checkbox') value = '';
      if (type === 'select' && !before.options.includes(value)) value = '';
      if (type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) value = '';
      return { ...before, field_type: type, value };
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const full = {
      name: draft.name.trim(),
      field_type: draft.field_type,
      value: draft.value.trim(),
      required: draft.required,
      ...(draft.field_type === 'select' ? { options: draft.options.map((o) => o.trim()) } : {}),
    };
    let result;
    if (!field) {
      const args = {
        courseId: props.courseId,
        attributes: { ...full, position: props.position },
      };
      const refused = checkCommand('customfield.create', args);
      if (refused) return setErrors(errorsOf(refused));
      setBusy(true);
      result = await sendCommand('customfield.create', args);
    } else {
      // The whole field is checked (its type decides what its value may be), only changes go.
      const whole = checkCommand('customfield.update', {
        courseId: props.courseId,
        id: field.id,
        attributes: { ...full, options: full.options ?? draftOf(field).options },
      });
      if (whole) return setErrors(errorsOf(whole));
      const change = changed(draftOf(field), {
        ...draft,
        ...full,
        options: full.options ?? draft.options,
      });
      if (Object.keys(change).length === 0) return props.onClose();
      setBusy(true);
      result = await sendCommand('customfield.update', {
        courseId: props.courseId,
        id: field.id,
        attributes: change,
      });
    }
    setBusy(false);
    if (result.ok) return props.onClose();
    const mapped = errorsOf(result.fields);
    if (Object.keys(mapped).length === 0) mapped._form = errorText(result.error, i18n.language);
    setErrors(mapped);
  };

  return (
    <Dialog
      open={open}
      onClose={props.onClose}
      labelledBy="customfield-title"
      className="customfield-dialog"
    >
      <form
        ref={form}
        onSubmit={(event) => void submit(event)}
        noValidate
        data-testid="customfield-dialog"
      >
        <h2 id="customfield-title">
          {field ? t('courses.fields.editTitle') : t('courses.fields.addTitle')}
        </h2>
        <div className="form-grid two">
          <InputField
            label={t('courses.fields.name')}
            required
            value={draft.name}
            onChange={(event) => set('name', event.target.value)}
            error={errors.name}
            autoComplete="off"
            data-testid="customfield-name"
          />
          <SelectField
            label={t('courses.fields.type')}
            value={draft.field_type}
            onChange={(event) => setType(event.target.value as FieldType)}
            error={errors.field_type}
            data-testid="customfield-type"
          >
            {FIELD_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`courses.fields.types.${type}`)}
              </option>
            ))}
          </SelectField>
        </div>
        {draft.field_type === 'select' ? (
          <fieldset className="options-editor">
            <legend>{t('courses.fields.options')}</legend>
            <ol>
              {draft.options.map((option, index) => (
                <li key={index}>
                  <Field
                    label={t('courses.fields.option', { n: index + 1 })}
                    hideLabel
                    error={errors[`options.${index}`]}
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="text"
                        value={option}
                        data-testid="customfield-option"
                        onChange={(event) =>
                          set(
                            'options',
                            draft.options.map((o, i) => (i === index ? event.target.value : o)),
                          )
                        }
                      />
                    )}
                  </Field>
                  <button
                    type="button"
                    className="quiet"
                    onClick={() =>
                      setDraft((before) => ({
                        ...before,
                        options: before.options.filter((_, i) => i !== index),
                        value: before.value === option ? '' : before.value,
                      }))
                    }
                  >
                    {t('courses.fields.removeOption')}
                    <span className="visually-hidden"> {index + 1}</span>
                  </button>
                </li>
              ))}
            </ol>
            <button
              type="button"
              className="secondary"
              data-testid="customfield-option-add"
              onClick={() => {
                set('options', [...draft.options, '']);
                window.requestAnimationFrame(() => {
                  const inputs = form.current?.querySelectorAll<HTMLInputElement>(
                    '[data-testid="customfield-option"]',
                  );
                  inputs?.[inputs.length - 1]?.focus();
                });
              }}
            >
              + {t('courses.fields.addOption')}
            </button>
            {errors.options ? (
              <p className="field-error" role="alert">
                {errors.options}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <ValueInput draft={draft} error={errors.value} onChange={(value) => set('value', value)} />
        <label className="check">
          <input
            type="checkbox"
            checked={draft.required}
            onChange={(event) => set('required', event.target.checked)}
            data-testid="customfield-required"
          />
          {t('courses.fields.required')}
        </label>
        {errors.required ? <p className="field-error">{errors.required}</p> : null}
        {errors._form ? (
          <p className="form-error" role="alert">
            {errors._form}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={busy} data-testid="customfield-save">
            {t('courses.fields.save')}
          </button>
          <button type="button" className="secondary" onClick={props.onClose}>
            {t('courses.fields.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The value's input, fitting the type. */
function ValueInput(props: { draft: Draft; error?: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  const { draft } = props;
  const label = t('courses.fields.value');
  switch (draft.field_type) {
    case 'checkbox':
      return (
        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              checked={draft.value === '1'}
              onChange={(event) => props.onChange(event.target.checked ? '1' : '0')}
              data-testid="customfield-value-input"
            />
            {t('courses.fields.checked')}
          </label>
          {props.error ? <span className="field-error">{props.error}</span> : null}
        </div>
      );
    case 'select':
      return (
        <SelectField
          label={label}
          value={draft.value}
          onChange={(event) => props.onChange(event.target.value)}
          error={props.error}
          data-testid="customfield-value-input"
        >
          <option value="">{t('courses.fields.noValue')}</option>
          {draft.options
            .filter((option) => option.trim() !== '')
            .map((option, index) => (
              <option key={`${index}-${option}`} value={option}>
                {option}
              </option>
            ))}
        </SelectField>
      );
    case 'date':
      return (
        <DateField
          label={label}
          value={draft.value}
          onValueChange={props.onChange}
          error={props.error}
          data-testid="customfield-value-input"
        />
      );
    case 'number':
      return (
        <InputField
          label={label}
          type="text"
          inputMode="decimal"
          value={draft.value}
          onChange={(event) => props.onChange(event.target.value)}
          error={props.error}
          hint={t('courses.fields.numberHint')}
          data-testid="customfield-value-input"
        />
      );
    default:
      return (
        <InputField
          label={label}
          type="text"
          value={draft.value}
          onChange={(event) => props.onChange(event.target.value)}
          error={props.error}
          data-testid="customfield-value-input"
        />
      );
  }
}
