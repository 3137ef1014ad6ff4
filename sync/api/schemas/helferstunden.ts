// Volunteer hours: entries, occasions (Anlass) with their referenced services and appointments,
// hour types and the own settings. Read tolerantly (see ./tolerance); the only member required
// to file a record is an hour entry's `von` (hours are stored, windowed and listed by it).
import type { z } from 'zod';
import { date, dateTime, flag, number, required, resourceSchema, text } from './common';

/** Required: `von`. `bis` is no value while an entry is open. */
export const helferstundenResource = resourceSchema('helferstunden', {
  von: required(dateTime),
  bis: dateTime,
  stunden: number,
  freigegeben: flag,
  anfahrt_km: number,
  freies_zahlenfeld: number,
  bemerkung: text,
  created_at: dateTime,
  updated_at: dateTime,
});
export type HelferstundenResource = z.infer<typeof helferstundenResource>;

export const helferstundenAnlassResource = resourceSchema('helferstunden_anlass', {
  beschreibung: text,
  typ: text,
  datum: date,
  updated_at: dateTime,
});
export type HelferstundenAnlassResource = z.infer<typeof helferstundenAnlassResource>;

export const helferstundenTypResource = resourceSchema('helferstunden_typ', {
  bezeichnung: text,
  aktiv: flag,
});
export type HelferstundenTypResource = z.infer<typeof helferstundenTypResource>;

export const helferstundenEinstellungenResource = resourceSchema('helferstunden_einstellungen', {
  eigene_stunden_erfassen: flag,
  freigabe_erforderlich: flag,
  standard_typ_id: text,
  anfahrt_erfassen: flag,
  zahlenfeld_bezeichnung: text,
});
export type HelferstundenEinstellungenResource = z.infer<typeof helferstundenEinstellungenResource>;

/** The event an occasion refers to (`include=anlass.referenz`): a service or an appointment. */
const eventFields = { titel: text, beginn: dateTime, ende: dateTime, ort: text };
export const dienstResource = resourceSchema('dienst', eventFields);
export type DienstResource = z.infer<typeof dienstResource>;
export const terminResource = resourceSchema('termin', eventFields);
export type TerminResource = z.infer<typeof terminResource>;
