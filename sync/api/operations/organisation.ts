// The own organisation's master data and the OAuth user-info (seed 4.2).
import type { ApiCore, RequestOptions } from '../core';
import type { Single } from '../pages';
import { orgaResource, userInfo, type OrgaResource, type UserInfo } from '../schemas/organisation';

export interface OrganisationApi {
  getOrganisation(options?: RequestOptions): Promise<Single<OrgaResource>>;
  /** `{oauthUrl}/userinfo`: plain JSON, not JSON:API. */
  getUserInfo(options?: RequestOptions): Promise<UserInfo>;
}

export function organisationApi(core: ApiCore, authBase: URL): OrganisationApi {
  return {
    getOrganisation: (options) =>
      core.getOne('/organisation/selbst/stammdaten', {}, orgaResource, options),
    getUserInfo: (options) => core.getJson(new URL('userinfo', authBase), userInfo, options),
  };
}
