// Calendars of the user (seed 4.3; the private iCal feed needs no client: it is a plain URL):
// the schema, read tolerantly (see ../schemas/tolerance; nothing required), and the operations.
import type { z } from 'zod';
import { dateTime, resourceSchema, text } from '../schemas/common';
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import { pathSegment } from './path';

export const kalenderResource = resourceSchema('kalender', {
  name: text,
  farbe: text,
  beschreibung: text,
  typ: text,
  ical_url: text,
  created_at: dateTime,
});
export type KalenderResource = z.infer<typeof kalenderResource>;

export interface KalenderApi {
  listKalender(options?: RequestOptions): AsyncGenerator<Page<KalenderResource>>;
  getKalender(id: string, options?: RequestOptions): Promise<Single<KalenderResource>>;
}

export function kalenderApi(core: ApiCore): KalenderApi {
  return {
    listKalender: (options) => core.list('/kalender', {}, kalenderResource, options),
    getKalender: (id, options) =>
      core.getOne(`/kalender/${pathSegment(id)}`, {}, kalenderResource, options),
  };
}

/** The area's resource schemas by JSON:API `type` (merged in ./index.ts). */
export const calendarsSchemas = {
  kalender: kalenderResource,
} as const;
