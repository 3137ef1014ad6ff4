// Volunteer hours (seed 4.4).
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import {
  helferstundenEinstellungenResource,
  helferstundenResource,
  type HelferstundenEinstellungenResource,
  type HelferstundenResource,
} from '../schemas/helferstunden';
import { dateTimeParam } from '../urls';
import type { IncludeOptions } from './include';
import { pathSegment } from './path';

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
