// Editing an operation of the outbox (most often one the service refused): its attributes as
// fields (text, numbers, yes/no, dates and times in Europe/Berlin); links of known kinds with a
// picker of what the replica offers (an hours entry's type: the active ones; its occasion:
// searched), the others shown but not changed. Checked with the command's own schema before it
// is sent (outbox.edit), the core's refusal shown beside the fields; what was typed stays.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commands, type CommandName, type OutboxEntry } from '../../contract';
import { Dialog } from '../../components/Dialog';
import { checkCommand, sendCommand, type FieldErrors } from '../../data';
import { ISO_DAY, showDay, TIME_OF_DAY } from '../../date-entry';
import { errorText } from '../../errors';
import { serviceDay, toServiceDateTime } from '../../format';
import { fieldName, operationText, subjectDetail, valueText, words } from './describe';
import { DraftField, draftOf, parseNumber, type Draft } from './DraftField';
import { HourTypePicker, linkError, OccasionPicker, PICKERS, targetOf } from './LinkPickers';

type Args = Record<string, unknown> & { attributes?: Record<string, unknown> };

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

function FactRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd className="mono">{value}</dd>
    </>
  );
}
