// The links of an operation a person may change while editing it, each with a picker of what the
// replica offers: an hours entry's type (the active ones) and its occasion (searched).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { SelectField } from '../../components/Field';
import { useQuery, type FieldErrors } from '../../data';
import { formatDate } from '../../format';
import { fieldName } from './describe';

/** Links a person may change here, per command, with the picker each gets. */
type Picker = 'hourType' | 'occasion';
export const PICKERS: Partial<Record<string, Record<string, Picker>>> = {
  'helferstunden.create': { typ: 'hourType', anlass: 'occasion' },
  'helferstunden.update': { typ: 'hourType', anlass: 'occasion' },
};

/** A to-one link's target: `{ data: { type, id } }`, else null. */
export function targetOf(value: unknown): { type: string; id: string } | null {
  const data = (value as { data?: unknown } | null)?.data as { type?: unknown; id?: unknown };
  return data && typeof data.type === 'string' && typeof data.id === 'string'
    ? { type: data.type, id: data.id }
    : null;
}

/** The error of a link's path (`relationships.typ`, `relationships.typ.data.id`, …). */
export function linkError(errors: FieldErrors, name: string): string | null {
  const prefix = `relationships.${name}`;
  const found = Object.entries(errors).find(
    ([path]) => path === prefix || path.startsWith(`${prefix}.`),
  );
  return found ? found[1] : null;
}

/**
 * An hours entry's type: the active types of the replica (the service takes new entries only with
 * one); the type the operation has, when no longer active, stays shown as such until changed.
 */
export function HourTypePicker(props: {
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
export function OccasionPicker(props: {
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
