// Notifications, forms and tax rates, read tolerantly (see ./tolerance); nothing required.
import { z } from 'zod';
import {
  date,
  dateTime,
  flag,
  integer,
  number,
  object,
  plainObjectSchema,
  resourceSchema,
  text,
} from './common';
import { converted, isPlainObject, objectReader } from './tolerance';

export const benachrichtigungResource = resourceSchema('benachrichtigung', {
  titel: text,
  text,
  kategorie: text,
  gelesen: flag,
  erstellt_am: dateTime,
  link: text,
});
export type BenachrichtigungResource = z.infer<typeof benachrichtigungResource>;

/** The notifications list carries its total in `meta.size` (a negative or unreadable one is no value). */
export const benachrichtigungenMeta = plainObjectSchema({
  size: (value: unknown) => {
    const size = integer(value);
    return size === undefined || size >= 0 ? size : undefined;
  },
});

const formularFields = { titel: text, aktion: object({}) };

/** `/formulare/v1/liste` answers plain JSON: an array of these. */
export const formular = plainObjectSchema(formularFields);
export type Formular = z.infer<typeof formular>;

const readFormular = objectReader(formularFields);

/** The list: not an array is unreadable; a null entry is dropped, an entry not an object too (counted). */
export const formularList = z.transform((input: unknown, ctx): Formular[] => {
  if (!Array.isArray(input)) {
    ctx.addIssue({ code: 'custom', message: 'expected a list of forms', input });
    return z.NEVER;
  }
  const forms: Formular[] = [];
  for (const entry of input) {
    if (entry === null) continue;
    if (isPlainObject(entry)) forms.push(readFormular(entry).value as Formular);
    else converted();
  }
  return forms;
});

/** Tax rates (`/steuersaetze`); the seed leaves the type open. */
export const steuersatzResource = resourceSchema(
  'steuersatz',
  { bezeichnung: text, satz: number, gueltig_ab: date },
  { anyTypeSpelling: true },
);
export type SteuersatzResource = z.infer<typeof steuersatzResource>;
