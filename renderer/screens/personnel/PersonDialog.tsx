// Creating a person, changing one (only the changed attributes are sent), or creating or
// updating one by member number (PUT by identifier; the form says which it will do when the
// replica knows the number). Checked with the contract's schemas before anything is queued,
// errors beside their fields, nothing typed lost; a member number another person here already
// has is a warning (the service decides). Works offline: the change shows at once, not yet sent.
// A change the service refused later opens here too (from the sync centre), with the refused
// values and the service's words: saving corrects that operation of the outbox (outbox.edit).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_STATUSES, type CommandArgs, type OutboxEntry } from '../../contract';
import { DateField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField } from '../../components/Field';
import { sendCommand, useQuery, type FieldErrors } from '../../data';
import { errorText } from '../../errors';
import { words } from '../sync-centre/describe';
import {
  changedAttributes,
  draftOf,
  emptyPersonDraft,
  fieldOfPath,
  filledAttributes,
  type PersonDraft,
  type PersonField,
} from './person-draft';

/** `refused`: the operation of the outbox the service refused, which saving corrects. */
export type PersonDialogRequest = (
  | { mode: 'create'; attributes?: Record<string, unknown> }
  | { mode: 'identifier'; attributes?: Record<string, unknown> }
  | { mode: 'edit'; id: string; attributes: Record<string, unknown> }
) & { refused?: OutboxEntry };

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

/** The attributes a refused operation sends (none without one). */
function refusedAttributes(entry: OutboxEntry | undefined): Record<string, unknown> {
  const args = entry?.arguments as { attributes?: Record<string, unknown> } | undefined;
  return args?.attributes ?? {};
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
    { mitgliednr: number, limit: 2 },
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
  const original = request.attributes ? draftOf(request.attributes) : emptyPersonDraft();
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
    const args =
      request.mode === 'edit'
        ? {
            id: request.id,
            // A refused change keeps what it changed, with the corrections over it.
            attributes: {
              ...refusedAttributes(request.refused),
              ...changedAttributes(original, draft),
            },
          }
        : request.mode === 'create'
          ? { attributes: filledAttributes(draft) }
          : {
              identifierName: 'mitgliednr' as const,
              identifierValue: draft.mitgliednr.trim(),
              // The number is the path's: the fields filled in go to whoever has it.
              attributes: withoutNumber(filledAttributes(draft)),
            };
    const result = request.refused
      ? await sendCommand('outbox.edit', { id: request.refused.id, arguments: args })
      : request.mode === 'edit'
        ? await sendCommand('user.update', args as CommandArgs<'user.update'>)
        : request.mode === 'create'
          ? await sendCommand('user.create', args as CommandArgs<'user.create'>)
          : await sendCommand('user.upsert', args as CommandArgs<'user.upsert'>);
    setBusy(false);
    if (result.ok) {
      onSaved('recordId' in result.value ? result.value.recordId : result.value.id);
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

  const title = request.refused
    ? t('personnel.form.refusedTitle')
    : request.mode === 'edit'
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
      {request.refused?.error ? (
        <p className="reason" data-testid="person-refused-reason">
          {words(request.refused.error.message, i18n.language)}
        </p>
      ) : null}
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

/** The operations on people whose refusal the person's own form corrects. */
export const PERSON_COMMANDS: readonly string[] = ['user.create', 'user.update', 'user.upsert'];

/**
 * The person's form for an operation the service refused (the sync centre's edit): its values as
 * refused, over the person as the replica has them (a change), or as sent (a new person).
 */
export function RefusedPersonDialog({
  entry,
  onClose,
  onSaved,
}: {
  entry: OutboxEntry | null;
  onClose(): void;
  onSaved(entry: OutboxEntry): void;
}) {
  const changes = entry?.command === 'user.update';
  const person = useQuery('personnel.get', { id: entry?.recordId ?? '' }, { enabled: changes });
  const args = (entry?.arguments ?? {}) as {
    attributes?: Record<string, unknown>;
    identifierValue?: string;
  };
  const request: PersonDialogRequest | null = !entry
    ? null
    : changes
      ? person.data === undefined
        ? null
        : {
            mode: 'edit',
            id: entry.recordId,
            // A person no longer in the replica: the refused values alone.
            attributes: person.data?.attributes ?? args.attributes ?? {},
            refused: entry,
          }
      : entry.command === 'user.create'
        ? { mode: 'create', attributes: args.attributes ?? {}, refused: entry }
        : {
            mode: 'identifier',
            attributes: { ...args.attributes, mitgliednr: args.identifierValue ?? '' },
            refused: entry,
          };
  return (
    <PersonDialog request={request} onClose={onClose} onSaved={() => entry && onSaved(entry)} />
  );
}
