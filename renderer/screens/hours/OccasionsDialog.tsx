// The occasions (Anlässe) for the office: listed newest first and searched, a new one created and
// one changed (kind, description, day; PATCH /helferstunden/anlass/{id} sends only what changed).
// The form checks with the contract's schemas beside its fields before anything is queued, and
// keeps what was typed when the core refuses it. Escape closes; Enter in the form saves.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANLASS_TYPES, type CommandArgs, type QueryResults } from '../../contract';
import { DateField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField } from '../../components/Field';
import { checkCommand, sendCommand, useQuery, type FieldErrors } from '../../data';
import { errorText } from '../../errors';
import { formatDate } from '../../format';

type Occasion = QueryResults['hours.occasions'][number];

interface OccasionDraft {
  typ: string;
  beschreibung: string;
  datum: string;
}

const FIELDS = ['typ', 'beschreibung', 'datum'] as const;

function draftOf(occasion: Occasion | null): OccasionDraft {
  return {
    typ: occasion?.typ ?? 'dienst',
    beschreibung: occasion?.beschreibung ?? '',
    datum: occasion?.datum?.slice(0, 10) ?? '',
  };
}

export function OccasionsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} onClose={onClose} labelledBy="occasions-title" className="occasions-dialog">
      {open ? <Occasions onClose={onClose} /> : null}
    </Dialog>
  );
}

function Occasions({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [search, setSearch] = useState('');
  const occasions = useQuery('hours.occasions', {
    search: search.trim() || undefined,
    limit: 200,
  });
  /** The occasion being changed, or 'new'; null: none. */
  const [editing, setEditing] = useState<Occasion | 'new' | null>(null);
  const [draft, setDraft] = useState<OccasionDraft>(draftOf(null));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');

  const edit = (occasion: Occasion | 'new') => {
    setEditing(occasion);
    setDraft(draftOf(occasion === 'new' ? null : occasion));
    setErrors({});
    setFormError(null);
    window.requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('[data-testid="occasion-beschreibung"]')?.focus(),
    );
  };

  const change = (patch: Partial<OccasionDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[`attributes.${key}`];
      return next;
    });
  };

  const save = async () => {
    if (editing === null) return;
    setFormError(null);
    const attributes = {
      typ: draft.typ as (typeof ANLASS_TYPES)[number],
      beschreibung: draft.beschreibung,
      ...(draft.datum ? { datum: draft.datum } : {}),
    };
    let result;
    if (editing === 'new') {
      const args: CommandArgs<'helferstunden_anlass.create'> = { attributes };
      const refused = checkCommand('helferstunden_anlass.create', args);
      if (refused) return refuse(refused);
      setBusy(true);
      result = await sendCommand('helferstunden_anlass.create', args);
    } else {
      const before = draftOf(editing);
      const changed = Object.fromEntries(
        FIELDS.filter((key) => draft[key] !== before[key]).map((key) => [key, draft[key]]),
      );
      if (Object.keys(changed).length === 0) {
        setEditing(null);
        return;
      }
      const args = {
        id: editing.id,
        attributes: changed,
      } as CommandArgs<'helferstunden_anlass.update'>;
      const refused = checkCommand('helferstunden_anlass.update', args);
      if (refused) return refuse(refused);
      setBusy(true);
      result = await sendCommand('helferstunden_anlass.update', args);
    }
    setBusy(false);
    if (!result.ok) {
      setErrors(result.fields);
      setFormError(errorText(result.error, language));
      return;
    }
    setNotice(
      t(editing === 'new' ? 'hoursOffice.occasions.created' : 'hoursOffice.occasions.changed', {
        name: draft.beschreibung,
      }),
    );
    setEditing(null);
  };

  const refuse = (fields: FieldErrors) => {
    setErrors(fields);
    setFormError(t('hours.dialog.fixFields'));
  };

  const list = occasions.data ?? [];
  return (
    <div className="occasions" data-testid="occasions-dialog">
      <h2 id="occasions-title">{t('hoursOffice.occasions.title')}</h2>
      <p className="visually-hidden" role="status" data-testid="occasions-notice">
        {notice}
      </p>
      <div className="occasions-bar">
        <InputField
          label={t('hoursOffice.occasions.search')}
          type="search"
          value={search}
          data-testid="occasions-search"
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="button" data-testid="occasion-new" onClick={() => edit('new')}>
          {t('hoursOffice.occasions.new')}
        </button>
      </div>

      {editing !== null ? (
        <form
          noValidate
          className="occasion-form"
          data-testid="occasion-form"
          aria-label={
            editing === 'new'
              ? t('hoursOffice.occasions.new')
              : t('hoursOffice.occasions.editTitle', { name: editing.beschreibung ?? '' })
          }
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <SelectField
            label={t('hours.dialog.occasionTyp')}
            value={draft.typ}
            error={errors['attributes.typ']}
            data-testid="occasion-typ"
            onChange={(event) => change({ typ: event.target.value })}
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
            value={draft.beschreibung}
            error={errors['attributes.beschreibung']}
            className="occasion-beschreibung"
            data-testid="occasion-beschreibung"
            onChange={(event) => change({ beschreibung: event.target.value })}
          />
          <DateField
            label={t('hours.dialog.occasionDatum')}
            value={draft.datum}
            error={errors['attributes.datum']}
            data-testid="occasion-datum"
            onValueChange={(datum) => change({ datum })}
          />
          {formError ? (
            <p className="form-error occasion-form-error" role="alert">
              {formError}
            </p>
          ) : null}
          <div className="actions">
            <button
              type="submit"
              disabled={busy}
              aria-busy={busy || undefined}
              data-testid="occasion-save"
            >
              {editing === 'new' ? t('hours.dialog.create') : t('hours.dialog.save')}
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              {t('hours.dialog.cancel')}
            </button>
          </div>
        </form>
      ) : null}

      <ul className="occasion-list" aria-label={t('hoursOffice.occasions.listLabel')}>
        {list.map((occasion) => (
          <li
            key={occasion.id}
            data-testid="occasion-row"
            data-occasion-id={occasion.id}
            data-local-state={occasion.localState ?? ''}
          >
            <span className="occasion-name">
              {occasion.beschreibung ?? t('hours.dialog.occasionUnnamed')}
            </span>
            <span className="muted">
              {[
                occasion.typ
                  ? t(`hours.anlassTyp.${occasion.typ}`, { defaultValue: occasion.typ })
                  : null,
                occasion.datum ? formatDate(occasion.datum, language) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <span>
              {occasion.localState ? (
                <span className="badge badge-not-sent" data-testid="not-sent">
                  {t('hours.notSent.label')}
                </span>
              ) : null}
            </span>
            <button
              type="button"
              className="secondary"
              data-testid="occasion-edit"
              aria-label={`${t('hours.edit')}: ${occasion.beschreibung ?? ''}`}
              onClick={() => edit(occasion)}
            >
              {t('hours.edit')}
            </button>
          </li>
        ))}
        {occasions.data && list.length === 0 ? (
          <li className="muted">{t('hoursOffice.occasions.none')}</li>
        ) : null}
      </ul>
      {list.length >= 200 ? <p className="hint">{t('hoursOffice.occasions.narrow')}</p> : null}
      <div className="actions">
        <button type="button" className="secondary" onClick={onClose}>
          {t('hoursOffice.occasions.close')}
        </button>
      </div>
    </div>
  );
}
