// Calendars of the user (seed 4.3; the private iCal feed needs no client: it is a plain URL).
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import { kalenderResource, type KalenderResource } from '../schemas/kalender';
import { pathSegment } from './path';

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
