// Volunteer hours (seed 4.4): the schemas of entries, occasions (Anlass) with their referenced
// services and appointments, hour types and the own settings, and their operations. Read
// tolerantly (see ../schemas/tolerance); the only member required to file a record is an hour
// entry's `von` (hours are stored, windowed and listed by it).
import type { z } from 'zod';
import { date, dateTime, flag, number, required, resourceSchema, text } from '../schemas/common';
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import { dateTimeParam } from '../urls';
import type { IncludeOptions } from './include';
import { pathSegment } from './path';

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

export type HelferstundenInclude = 'anlass' | 'typ' | 'user' | 'anlass.referenz';

export interface ListHelferstundenOptions extends IncludeOptions<HelferstundenInclude> {
  /** Only the own entries. The service's default is true, so pass false to see others' (where allowed). */
  eigene?: boolean;
  /** 'YYYY-MM-DD'. The service's default is six months before today, so pass an early date for everything. */
  von?: string;
  /** 'YYYY-MM-DD'. */
  bis?: string;
  changedSince?: Date | string;
}

export interface HelferstundenApi {
  listHelferstunden(
    options?: ListHelferstundenOptions,
  ): AsyncGenerator<Page<HelferstundenResource>>;
  getHelferstunden(id: string, options?: RequestOptions): Promise<Single<HelferstundenResource>>;
  /** The own settings; `included` holds the active hour types. */
  getHelferstundenEinstellungen(
    options?: RequestOptions,
  ): Promise<Single<HelferstundenEinstellungenResource>>;
}

export function helferstundenApi(core: ApiCore): HelferstundenApi {
  return {
    listHelferstunden: (options = {}) =>
      core.list(
        '/helferstunden',
        {
          'filter[eigene]': options.eigene,
          'filter[von]': options.von,
          'filter[bis]': options.bis,
          'filter[changed_since]': dateTimeParam(options.changedSince),
          include: options.include,
        },
        helferstundenResource,
        options,
      ),
    getHelferstunden: (id, options) =>
      core.getOne(`/helferstunden/${pathSegment(id)}`, {}, helferstundenResource, options),
    getHelferstundenEinstellungen: (options) =>
      core.getOne(
        '/helferstunden/einstellungen/selbst',
        {},
        helferstundenEinstellungenResource,
        options,
      ),
  };
}

/** The area's resource schemas by JSON:API `type` (merged in ./index.ts). */
export const hoursSchemas = {
  helferstunden: helferstundenResource,
  helferstunden_anlass: helferstundenAnlassResource,
  helferstunden_typ: helferstundenTypResource,
  helferstunden_einstellungen: helferstundenEinstellungenResource,
  dienst: dienstResource,
  termin: terminResource,
} as const;
