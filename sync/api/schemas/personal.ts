// Personnel (`/personal`): people, their trainings, checks and honours.
// Required are the attributes screens and sync rely on; the rest is checked when present.
import { z } from 'zod';
import { date, dateTime, flag, id, integer, resourceSchema, text, texts } from './common';

/** A training as embedded in the user resource (saves one request per person, SERVICE-NOTES). */
const embeddedAusbildung = z.looseObject({
  id,
  ausbildung_id: id.optional(),
  bezeichnung: text,
  datum: date.optional(),
  lehrgangsnummer: text.optional(),
  gueltig_bis: date.optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});

const qualifikation = z.looseObject({
  name: text.optional(),
  name_kurz: text.optional(),
  liste: text.optional(),
  erwerb_datum: date.optional(),
});

export const userResource = resourceSchema('user', {
  vorname: text,
  nachname: text,
  name: text.optional(),
  status: text,
  gesperrt: flag.optional(),
  leitung: flag.optional(),
  anrede: text.optional(),
  username: text.optional(),
  kuerzel: text.optional(),
  email: text.optional(),
  telpriv: text.optional(),
  teldienst: text.optional(),
  handy: text.optional(),
  adresse: text.optional(),
  plz: text.optional(),
  ort: text.optional(),
  land: text.optional(),
  gebdat: date.optional(),
  gebort: text.optional(),
  gruppen_namen: texts.optional(),
  orgakuerzel: text.optional(),
  rechte: texts.optional(),
  mitgliednr: text.optional(),
  mitglied_seit: date.optional(),
  austritt_datum: date.optional(),
  fahrerlaubnis: z.looseObject({ klassen: texts.optional() }).optional(),
  benutzerdefinierte_felder: z.array(z.looseObject({ name: text.optional() })).optional(),
  qualifikationen: z.array(qualifikation).optional(),
  ausbildungen: z.array(embeddedAusbildung).optional(),
});
export type UserResource = z.infer<typeof userResource>;
export type EmbeddedAusbildung = z.infer<typeof embeddedAusbildung>;

export const organisationResource = resourceSchema('organisation', {
  name: text,
  kuerzel: text.optional(),
});
export type OrganisationResource = z.infer<typeof organisationResource>;

export const ausbildungResource = resourceSchema('ausbildung', {
  bezeichnung: text,
  ausbildung_id: id.optional(),
  datum: date.optional(),
  lehrgangsnummer: text.optional(),
  gueltig_bis: date.optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});
export type AusbildungResource = z.infer<typeof ausbildungResource>;

export const ueberpruefungResource = resourceSchema('ueberpruefung', {
  bezeichnung: text,
  pruefergebnis: z
    .looseObject({ bestanden: flag.optional(), einschraenkungen: text.optional() })
    .nullable()
    .optional(),
  letzte_pruefung: date.optional(),
  naechste_pruefung: date.optional(),
  updated_at: dateTime.optional(),
});
export type UeberpruefungResource = z.infer<typeof ueberpruefungResource>;

export const ehrungResource = resourceSchema('ehrung', {
  bezeichnung: text,
  datum: date.optional(),
  jahre: integer.nullable().optional(),
  stufe: text.optional(),
});
export type EhrungResource = z.infer<typeof ehrungResource>;
