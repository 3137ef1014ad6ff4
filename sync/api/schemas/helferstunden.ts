// Volunteer hours: entries, occasions (Anlass) with their referenced services and appointments,
// hour types and the own settings.
import type { z } from 'zod';
import { date, dateTime, flag, number, resourceSchema, text } from './common';

export const helferstundenResource = resourceSchema('helferstunden', {
  von: dateTime,
  bis: dateTime.nullable(),
  stunden: number,
  freigegeben: flag.optional(),
  anfahrt_km: number.nullable().optional(),
  freies_zahlenfeld: number.nullable().optional(),
  bemerkung: text.optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});
export type HelferstundenResource = z.infer<typeof helferstundenResource>;

export const helferstundenAnlassResource = resourceSchema('helferstunden_anlass', {
  beschreibung: text,
  typ: text.optional(),
  datum: date.optional(),
  updated_at: dateTime.optional(),
});
export type HelferstundenAnlassResource = z.infer<typeof helferstundenAnlassResource>;

export const helferstundenTypResource = resourceSchema('helferstunden_typ', {
  bezeichnung: text,
  aktiv: flag.optional(),
});
export type HelferstundenTypResource = z.infer<typeof helferstundenTypResource>;

export const helferstundenEinstellungenResource = resourceSchema('helferstunden_einstellungen', {
  eigene_stunden_erfassen: flag.optional(),
  freigabe_erforderlich: flag.optional(),
  standard_typ_id: text.optional(),
  anfahrt_erfassen: flag.optional(),
  zahlenfeld_bezeichnung: text.optional(),
});
export type HelferstundenEinstellungenResource = z.infer<typeof helferstundenEinstellungenResource>;

/** The event an occasion refers to (`include=anlass.referenz`): a service or an appointment. */
const eventAttributes = {
  titel: text,
  beginn: dateTime.optional(),
  ende: dateTime.optional(),
  ort: text.optional(),
};
export const dienstResource = resourceSchema('dienst', eventAttributes);
export type DienstResource = z.infer<typeof dienstResource>;
export const terminResource = resourceSchema('termin', eventAttributes);
export type TerminResource = z.infer<typeof terminResource>;
