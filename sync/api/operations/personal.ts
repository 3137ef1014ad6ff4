// Personnel: the own record, the list, and per person trainings, checks and honours (seed 4.1).
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import {
  ausbildungResource,
  ehrungResource,
  ueberpruefungResource,
  userResource,
  type AusbildungResource,
  type EhrungResource,
  type UeberpruefungResource,
  type UserResource,
} from '../schemas/personal';
import { dateTimeParam } from '../urls';
import { pathSegment } from './path';

/** Status values of `filter[status]` (seed section 3); the type stays open for values the service adds. */
export type PersonalStatus = 'aktiv' | 'eingeschraenkt' | 'gesperrt' | 'extern' | (string & {});

export interface ListPersonalOptions extends RequestOptions {
  /** Only records changed since then; a Date is sent as 'Y-m-dTH:i:sP' in UTC, a string as it is. */
  updatedSince?: Date | string;
  status?: readonly PersonalStatus[];
  include?: readonly 'organisation'[];
}

export interface PerPersonOptions extends RequestOptions {
  updatedSince?: Date | string;
  include?: readonly 'user'[];
}

export interface PersonalApi {
  getOwnUser(options?: RequestOptions): Promise<Single<UserResource>>;
  listPersonal(options?: ListPersonalOptions): AsyncGenerator<Page<UserResource>>;
  listAusbildungen(
    userId: string,
    options?: PerPersonOptions,
  ): AsyncGenerator<Page<AusbildungResource>>;
  listUeberpruefungen(
    userId: string,
    options?: PerPersonOptions,
  ): AsyncGenerator<Page<UeberpruefungResource>>;
  listEhrungen(userId: string, options?: RequestOptions): AsyncGenerator<Page<EhrungResource>>;
}

export function personalApi(core: ApiCore): PersonalApi {
  const personPath = (userId: string) => `/personal/${pathSegment(userId)}`;
  const perPersonQuery = (params: PerPersonOptions) => ({
    'filter[updated_since]': dateTimeParam(params.updatedSince),
    include: params.include,
  });
  return {
    getOwnUser: (options) => core.getOne('/personal/selbst', {}, userResource, options),
    listPersonal: (options = {}) =>
      core.list(
        '/personal',
        {
          'filter[updated_since]': dateTimeParam(options.updatedSince),
          'filter[status]': options.status,
          include: options.include,
        },
        userResource,
        options,
      ),
    listAusbildungen: (userId, options = {}) =>
      core.list(
        `${personPath(userId)}/ausbildungen`,
        perPersonQuery(options),
        ausbildungResource,
        options,
      ),
    listUeberpruefungen: (userId, options = {}) =>
      core.list(
        `${personPath(userId)}/ueberpruefungen`,
        perPersonQuery(options),
        ueberpruefungResource,
        options,
      ),
    listEhrungen: (userId, options) =>
      core.list(`${personPath(userId)}/ehrungen`, {}, ehrungResource, options),
  };
}
