// A person's form as text fields, and the attributes a save sends: on a change only what changed
// ("" and an absent or null value are the same empty field, as the service records them alike),
// on a create only what was filled in.
import type { CommandArgs } from '../../contract';

export const PERSON_FIELDS = [
  'anrede',
  'vorname',
  'nachname',
  'status',
  'mitgliednr',
  'email',
  'handy',
  'telpriv',
  'teldienst',
  'adresse',
  'plz',
  'ort',
  'gebdat',
] as const;
export type PersonField = (typeof PERSON_FIELDS)[number];
export type PersonDraft = Record<PersonField, string>;
type ChangedAttributes = CommandArgs<'user.update'>['attributes'];
type NewAttributes = CommandArgs<'user.create'>['attributes'];

function asText(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return '';
  // A date-time the service gave for a date field: its day.
  return /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value;
}

export function draftOf(attributes: Record<string, unknown> = {}): PersonDraft {
  return Object.fromEntries(
    PERSON_FIELDS.map((field) => [field, asText(attributes[field])]),
  ) as PersonDraft;
}

export const emptyPersonDraft = (): PersonDraft => draftOf({});

/** The fields of `draft` that differ from `original`, trimmed, as the command's attributes. */
export function changedAttributes(original: PersonDraft, draft: PersonDraft): ChangedAttributes {
  const changed: Record<string, string> = {};
  for (const field of PERSON_FIELDS) {
    const value = draft[field].trim();
    if (value !== original[field].trim()) changed[field] = value;
  }
  return changed as ChangedAttributes;
}

/** The filled-in fields of a new person. */
export function filledAttributes(draft: PersonDraft): NewAttributes {
  const filled: Record<string, string> = {};
  for (const field of PERSON_FIELDS) {
    const value = draft[field].trim();
    if (value !== '') filled[field] = value;
  }
  // The contract's check (sendCommand) says which required field is missing, beside it.
  return filled as unknown as NewAttributes;
}

/** A contract path of a refused argument (`attributes.email`) as the form's field. */
export function fieldOfPath(path: string): PersonField | null {
  const field = path.replace(/^attributes\./, '').split('.')[0] ?? '';
  return (PERSON_FIELDS as readonly string[]).includes(field) ? (field as PersonField) : null;
}
