// Adding or changing a person's qualification by the interface's pair rule: exactly one of
// (position, rang), (position, name_kurz), (zentralliste_id, zentralliste_rang) and
// (zentralliste_id, zentralliste_name_kurz); the same list again changes its qualification.
// Checked with the contract's schema before anything is queued; errors beside the fields.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField } from '../../components/Field';
import type { CommandArgs } from '../../contract';
import { sendCommand } from '../../data';
import { errorText } from '../../errors';

export const PAIRS = [
  ['position', 'rang'],
  ['position', 'name_kurz'],
  ['zentralliste_id', 'zentralliste_rang'],
  ['zentralliste_id', 'zentralliste_name_kurz'],
] as const;
type Pair = (typeof PAIRS)[number];
const NUMBERS = new Set(['position', 'rang', 'zentralliste_id', 'zentralliste_rang']);

/** The edit that removes a qualification: its pair's second value null (the interface's rule). */
export function removalOf(q: Record<string, unknown>): Record<string, unknown> | null {
  const present = (name: string) => q[name] !== undefined && q[name] !== null && q[name] !== '';
  for (const [list, second] of PAIRS)
    if (present(list) && present(second)) return { [list]: Number(q[list]), [second]: null };
  return null;
}

export function QualificationDialog({
  personId,
  open,
  onClose,
}: {
  personId: string;
  open: boolean;
  onClose(): void;
}) {
  return (
    <Dialog open={open} onClose={onClose} labelledBy="quali-dialog-title">
      {open ? <QualificationForm personId={personId} onClose={onClose} /> : null}
    </Dialog>
  );
}

function QualificationForm({ personId, onClose }: { personId: string; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const [pair, setPair] = useState<Pair>(PAIRS[0]);
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [acquired, setAcquired] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [list, rank] = pair;
  const valueOf = (name: string, text: string) =>
    NUMBERS.has(name) && /^\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim();

  const save = async () => {
    setFormError(null);
    const local: Record<string, string> = {};
    if (!first.trim()) local.first = t('personnel.form.required');
    if (!second.trim()) local.second = t('personnel.form.required');
    if (Object.keys(local).length) return setErrors(local);
    const edit: Record<string, unknown> = {
      [list]: valueOf(list, first),
      [rank]: valueOf(rank, second),
      ...(acquired ? { erwerb_datum: acquired } : {}),
    };
    setBusy(true);
    const result = await sendCommand('user.update', {
      id: personId,
      attributes: { qualifikationen: [edit] } as CommandArgs<'user.update'>['attributes'],
    });
    setBusy(false);
    if (result.ok) return onClose();
    const byField: Record<string, string> = {};
    for (const [path, words] of Object.entries(result.fields)) {
      const member = path.split('.').at(-1) ?? '';
      if (member === list) byField.first = words;
      else if (member === rank) byField.second = words;
      else if (member === 'erwerb_datum') byField.acquired = words;
      else setFormError(words);
    }
    setErrors(byField);
    if (!Object.keys(result.fields).length) setFormError(errorText(result.error, i18n.language));
  };

  return (
    <form
      noValidate
      className="person-form"
      data-testid="quali-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id="quali-dialog-title">{t('personnel.quali.title')}</h2>
      <p className="hint">{t('personnel.quali.hint')}</p>
      <div className="person-form-grid">
        <SelectField
          label={t('personnel.quali.pair')}
          value={PAIRS.indexOf(pair)}
          data-testid="quali-pair"
          onChange={(event) => setPair(PAIRS[Number(event.target.value)] ?? PAIRS[0])}
        >
          {PAIRS.map(([a, b], index) => (
            <option key={`${a}-${b}`} value={index}>
              {t(`personnel.quali.field.${a}`)} + {t(`personnel.quali.field.${b}`)}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t(`personnel.quali.field.${list}`)}
          value={first}
          error={errors.first}
          required
          inputMode="numeric"
          data-testid="quali-first"
          onChange={(event) => setFirst(event.target.value)}
        />
        <InputField
          label={t(`personnel.quali.field.${rank}`)}
          value={second}
          error={errors.second}
          required
          inputMode={NUMBERS.has(rank) ? 'numeric' : 'text'}
          data-testid="quali-second"
          onChange={(event) => setSecond(event.target.value)}
        />
        <DateField
          label={t('personnel.quali.acquired')}
          value={acquired}
          error={errors.acquired}
          onValueChange={setAcquired}
        />
      </div>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={busy} data-testid="quali-save">
          {t('personnel.quali.save')}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {t('personnel.form.cancel')}
        </button>
      </div>
    </form>
  );
}
