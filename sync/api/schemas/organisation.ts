// The own organisation's master data and the OAuth user-info document.
import { z } from 'zod';
import { flag, integer, resourceSchema, text, texts } from './common';

export const orgaResource = resourceSchema('orga', {
  name: text,
  kuerzel: text.optional(),
  strasse: text.optional(),
  plz: text.optional(),
  ort: text.optional(),
  land: text.optional(),
  telefon: text.optional(),
  email: text.optional(),
  webseite: text.optional(),
  vereinsregister: text.optional(),
  module: texts.optional(),
});
export type OrgaResource = z.infer<typeof orgaResource>;

/** `/oauth/v1/userinfo` (plain JSON, OpenID Connect claims): only `sub` is guaranteed by the standard. */
export const userInfo = z.looseObject({
  sub: z.string().min(1),
  name: text.optional(),
  given_name: text.optional(),
  family_name: text.optional(),
  preferred_username: text.optional(),
  email: text.optional(),
  email_verified: flag.optional(),
  gender: text.optional(),
  birthdate: text.optional(),
  phone_number: text.optional(),
  phone_number_verified: flag.optional(),
  address: z.looseObject({}).optional(),
  updated_at: integer.optional(),
  organisation_key: text.optional(),
});
export type UserInfo = z.infer<typeof userInfo>;
