// One attribute of an operation as a field to edit, by the kind of its value: text, a number
// ("1,5" or "1.5"), yes/no, a date, a date and time in Europe/Berlin; others shown, not changed.
import { useTranslation } from 'react-i18next';
import { DateField, TimeField } from '../../components/DateTimeFields';
import { Field, InputField } from '../../components/Field';
import { serviceDay, serviceTime } from '../../format';
import { fieldName, isDateText, isDateTimeText, valueText } from './describe';

export type Draft =
  | { kind: 'text'; text: string; wasNull: boolean }
  | { kind: 'number'; text: string; wasNull: boolean }
  | { kind: 'boolean'; checked: boolean }
  | { kind: 'date'; day: string }
  | { kind: 'dateTime'; day: string; time: string }
  | { kind: 'fixed'; value: unknown };

export function draftOf(value: unknown): Draft {
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
export function parseNumber(text: string): number | null {
  const normal = text.trim().replace(',', '.');
  if (normal === '' || !/^-?\d*(\.\d+)?$/.test(normal)) return null;
  const value = Number(normal);
  return Number.isFinite(value) ? value : null;
}

export function DraftField({
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
