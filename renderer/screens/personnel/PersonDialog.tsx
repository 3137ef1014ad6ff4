// Creating a person, changing one (only the changed attributes are sent), or creating or
// updating one by member number (PUT by identifier; the form says which it will do when the
// replica knows the number). Checked with the contract's schemas before anything is queued,
// errors beside their fields, nothing typed lost; a member number another person here already
// has is a warning (the service decides). Works offline: the change shows at once, not yet sent.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_STATUSES } from '../../contract';
import { DateField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField } from '../../components/Field';
import { sendCommand, useQuery, type FieldErrors } from '../../data';
import { errorText } from '../../errors';
import {
  changedAttributes,
  draftOf,
  emptyPersonDraft,
  fieldOfPath,
  filledAttributes,
  type PersonDraft,
  type PersonField,
} from './person-draft';

export type PersonDialogRequest =
  | { mode: 'create' }
  | { mode: 'identifier' }
  | { mode: 'edit'; id: string; attributes: Record<string, unknown> };

export function PersonDialog({
  request,
  onClose,
  onSaved,
}: {
  request: PersonDialogRequest | null;
  onClose(): void;
  /** The person written (its id; `local-…` for one made offline). */
  onSaved(id: string): void;
}) {
  return (
    <Dialog open={request !== null} onClose={onClose} labelledBy="person-dialog-title">
      {request ? <PersonForm request={request} onClose={onClose} onSaved={onSaved} /> : null}
    </Dialog>
  );
}

function withoutNumber<T extends { mitgliednr?: string }>(attributes: T): T {
  const { mitgliednr: _number, ...rest } = attributes;
  return rest as T;
}

/** The person of the replica with exactly this member number, other than `exceptId`. */
function useHolderOf(mitgliednr: string, exceptId: string | null) {
  const number = mitgliednr.trim();
  const found = useQuery(
    'personnel.list',
    { search: number, limit: 20 },
    { enabled: number.length > 0 },
  );
  if (!number) return null;
  return (
    found.data?.items.find((person) => person.mitgliednr === number && person.id !== exceptId) ??
    null
  );
}

function PersonForm({
  request,
  onClose,
  onSaved,
}: {
  request: PersonDialogRequest;
  onClose(): void;
  onSaved(id: string): void;
}) {
  const { t, i18n } = useTranslation();
  const original = request.mode === 'edit' ? draftOf(request.attributes) : emptyPersonDraft();
  const [draft, setDraft] = useState<PersonDraft>(original);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editedId = request.mode === 'edit' ? request.id : null;
  const holder = useHolderOf(draft.mitgliednr, editedId);
  // By member number: the holder is who the PUT changes; nobody, and it creates.
  const updatesHolder = request.mode === 'identifier' && holder !== null;

  useEffect(() => setErrors({}), [request]);
  const change = (field: PersonField, value: string) => {
    setDraft((before) => ({ ...before, [field]: value }));
    setErrors((before) => ({ ...before, [field]: '' }));
  };

  const save = async () => {
    setFormError(null);
    const local: FieldErrors = {};
    const creates = request.mode === 'create' || (request.mode === 'identifier' && !holder);
    if (creates) {
      // The contract cannot know for PUT whether it creates: the form does, from the replica.
      if (!draft.vorname.trim()) local.vorname = t('personnel.form.required');
      if (!draft.nachname.trim()) local.nachname = t('personnel.form.required');
    }
    if (request.mode === 'identifier' && !draft.mitgliednr.trim())
      local.mitgliednr = t('personnel.form.required');
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    setBusy(true);
    const result =
      request.mode === 'edit'
        ? await sendCommand('user.update', {
            id: request.id,
            attributes: changedAttributes(original, draft),
          })
        : request.mode === 'create'
          ? await sendCommand('user.create', { attributes: filledAttributes(draft) })
          : await sendCommand('user.upsert', {
              identifierName: 'mitgliednr',
              identifierValue: draft.mitgliednr.trim(),
              // The number is the path's: the fields filled in go to whoever has it.
              attributes: withoutNumber(filledAttributes(draft)),
            });
    setBusy(false);
    if (result.ok) {
      onSaved(result.value.id);
      onClose();
      return;
    }
    const byField: FieldErrors = {};
    const rest: string[] = [];
    for (const [path, words] of Object.entries(result.fields)) {
      const field = fieldOfPath(path);
      if (field) byField[field] = words;
      else rest.push(words);
    }
    setErrors(byField);
    if (rest.length || !Object.keys(byField).length)
      setFormError(rest.join('; ') || errorText(result.error, i18n.language));
  };

  const title =
    request.mode === 'edit'
      ? t('personnel.form.editTitle')
      : request.mode === 'create'
        ? t('personnel.form.createTitle')
        : t('personnel.form.identifierTitle');
  const text = (field: PersonField, options: { required?: boolean; type?: string } = {}) => (
    <InputField
      label={t(`personnel.form.field.${field}`)}
      value={draft[field]}
      error={errors[field]}
      required={options.required}
      type={options.type ?? 'text'}
      autoComplete="off"
      data-testid={`person-field-${field}`}
      onChange={(event) => change(field, event.target.value)}
    />
  );
  const creating = request.mode === 'create' || (request.mode === 'identifier' && !holder);

  return (
    <form
      noValidate
      className="person-form"
      data-testid="person-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id="person-dialog-title">{title}</h2>
      {request.mode === 'identifier' ? (
        <div className="person-form-identifier">
          {text('mitgliednr', { required: true })}
          <p className="hint" role="status" data-testid="person-identifier-outcome">
            {!draft.mitgliednr.trim()
              ? t('personnel.form.identifierHint')
              : updatesHolder
                ? t('personnel.form.identifierUpdates', {
                    name: `${holder!.vorname} ${holder!.nachname}`,
                  })
                : t('personnel.form.identifierCreates')}
          </p>
        </div>
      ) : null}
      <div className="person-form-grid">
        <SelectField
          label={t('personnel.form.field.anrede')}
          value={draft.anrede}
          error={errors.anrede}
          onChange={(event) => change('anrede', event.target.value)}
        >
          <option value="">{t('personnel.form.none')}</option>
          <option value="Frau">{t('personnel.form.frau')}</option>
          <option value="Herr">{t('personnel.form.herr')}</option>
        </SelectField>
        {text('vorname', { required: creating })}
        {text('nachname', { required: creating })}
        <SelectField
          label={t('personnel.form.field.status')}
          value={draft.status}
          error={errors.status}
          data-testid="person-field-status"
          onChange={(event) => change('status', event.target.value)}
        >
          {original.status === '' ? <option value="">{t('personnel.form.none')}</option> : null}
          {PERSON_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`personnel.status.${status}`)}
            </option>
          ))}
        </SelectField>
        {request.mode === 'identifier' ? null : (
          <div>
            {text('mitgliednr')}
            {holder ? (
              <p className="hint warn" role="status" data-testid="person-number-taken">
                {t('personnel.form.numberTaken', {
                  name: `${holder.vorname} ${holder.nachname}`,
                })}
              </p>
            ) : null}
          </div>
        )}
        <DateField
          label={t('personnel.form.field.gebdat')}
          value={draft.gebdat}
          error={errors.gebdat}
          onValueChange={(day) => change('gebdat', day)}
        />
        {text('email', { type: 'email' })}
        {text('handy', { type: 'tel' })}
        {text('telpriv', { type: 'tel' })}
        {text('teldienst', { type: 'tel' })}
        {text('adresse')}
        {text('plz')}
        {text('ort')}
      </div>
      {formError ? (
        <p className="form-error" role="alert" data-testid="person-form-error">
          {formError}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="submit"
          disabled={busy}
          aria-busy={busy || undefined}
          data-testid="person-save"
        >
          {request.mode === 'edit' || updatesHolder
            ? t('personnel.form.save')
            : t('personnel.form.create')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('personnel.form.cancel')}
        </button>
      </div>
    </form>
  );
}
