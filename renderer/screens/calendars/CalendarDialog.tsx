// A new calendar: name (required), colour and description, checked with the contract's schema
// beside each field before anything is queued (offline it waits in the outbox). The interface
// marks creating calendars as a draft (DRAFT): the form says so, since the service may still
// change or refuse it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { InputField, TextareaField } from '../../components/Field';
import { sendCommand } from '../../data';
import { errorText } from '../../errors';

const COLOUR = '#b3141b';

export function CalendarDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(name: string): void;
}) {
  return (
    <Dialog open={open} onClose={onClose} labelledBy="calendar-dialog-title">
      {open ? <CalendarForm onClose={onClose} onCreated={onCreated} /> : null}
    </Dialog>
  );
}

function CalendarForm({ onClose, onCreated }: { onClose(): void; onCreated(name: string): void }) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState('');
  const [farbe, setFarbe] = useState(COLOUR);
  const [beschreibung, setBeschreibung] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (busy) return;
    setFormError(null);
    setBusy(true);
    const result = await sendCommand('kalender.create', {
      attributes: {
        name: name.trim(),
        farbe,
        ...(beschreibung.trim() ? { beschreibung: beschreibung.trim() } : {}),
      },
    });
    setBusy(false);
    if (result.ok) {
      onCreated(name.trim());
      return onClose();
    }
    const byField: Record<string, string> = {};
    for (const [path, words] of Object.entries(result.fields)) {
      const member = path.split('.').at(-1) ?? '';
      if (member === 'name' || member === 'farbe' || member === 'beschreibung')
        byField[member] = words;
      else setFormError(words);
    }
    setErrors(byField);
    if (!Object.keys(result.fields).length) setFormError(errorText(result.error, i18n.language));
  };

  return (
    <form
      noValidate
      className="calendar-form"
      data-testid="calendar-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id="calendar-dialog-title">{t('calendars.create.title')}</h2>
      <p className="notice calendar-draft" data-testid="calendar-draft">
        <strong>{t('calendars.create.draftLabel')}</strong> {t('calendars.create.draft')}
      </p>
      <InputField
        label={t('calendars.create.name')}
        value={name}
        error={errors.name}
        required
        autoFocus
        maxLength={200}
        data-testid="calendar-name"
        onChange={(event) => {
          setName(event.target.value);
          if (errors.name) setErrors(({ name: _, ...rest }) => rest);
        }}
      />
      <InputField
        label={t('calendars.create.colour')}
        type="color"
        value={farbe}
        error={errors.farbe}
        className="calendar-colour-field"
        data-testid="calendar-colour"
        onChange={(event) => setFarbe(event.target.value)}
      />
      <TextareaField
        label={t('calendars.create.description')}
        value={beschreibung}
        error={errors.beschreibung}
        rows={3}
        data-testid="calendar-description"
        onChange={(event) => setBeschreibung(event.target.value)}
      />
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <p className="hint">{t('calendars.create.offline')}</p>
      <div className="actions">
        <button type="submit" disabled={busy} data-testid="calendar-save">
          {t('calendars.create.save')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('calendars.create.cancel')}
        </button>
      </div>
    </form>
  );
}
