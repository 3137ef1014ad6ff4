// Notifications, forms and tax rates.
import { z } from 'zod';
import { date, dateTime, flag, number, resourceSchema, text } from './common';

export const benachrichtigungResource = resourceSchema('benachrichtigung', {
  titel: text,
  text: text.optional(),
  kategorie: text.optional(),
  gelesen: flag.optional(),
  erstellt_am: dateTime.optional(),
  link: text.optional(),
});
export type BenachrichtigungResource = z.infer<typeof benachrichtigungResource>;

/** The notifications list carries its total in `meta.size`. */
export const benachrichtigungenMeta = z.looseObject({ size: z.int().nonnegative() });

/** `/formulare/v1/liste` answers plain JSON: an array of these. */
export const formular = z.looseObject({ titel: text, aktion: z.looseObject({}) });
export const formularList = z.array(formular);
export type Formular = z.infer<typeof formular>;

export const steuersatzResource = resourceSchema('steuersatz', {
  bezeichnung: text,
  satz: number,
  gueltig_ab: date.optional(),
});
export type SteuersatzResource = z.infer<typeof steuersatzResource>;
