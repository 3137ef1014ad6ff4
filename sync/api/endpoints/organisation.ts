// The own organisation's master data and the OAuth user-info (seed 4.2): their schemas, read
// tolerantly (see ../schemas/tolerance; required: only the user-info's `sub`, the standard
// guarantees nothing else), and their operations.
import type { z } from 'zod';
import {
  flag,
  idText,
  integer,
  object,
  plainObjectSchema,
  required,
  resourceSchema,
  text,
  texts,
} from '../schemas/common';
import type { ApiCore, RequestOptions } from '../core';
import type { Single } from '../pages';

export const orgaResource = resourceSchema('orga', {
  name: text,
  kuerzel: text,
  strasse: text,
  plz: text,
  ort: text,
  land: text,
  telefon: text,
  email: text,
  webseite: text,
  vereinsregister: text,
  module: texts,
});
export type OrgaResource = z.infer<typeof orgaResource>;

/** `/oauth/v1/userinfo` (plain JSON, OpenID Connect claims): only `sub` is guaranteed by the standard. */
export const userInfo = plainObjectSchema({
  sub: required(idText),
  name: text,
  given_name: text,
  family_name: text,
  preferred_username: text,
  email: text,
  email_verified: flag,
  gender: text,
  birthdate: text,
  phone_number: text,
  phone_number_verified: flag,
  address: object({}),
  updated_at: integer,
  organisation_key: text,
});
export type UserInfo = z.infer<typeof userInfo>;

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

/** The area's resource schemas by JSON:API `type` (merged in ./index.ts). */
export const organisationSchemas = {
  orga: orgaResource,
} as const;
