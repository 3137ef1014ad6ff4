// The own organisation's master data and the OAuth user-info document, read tolerantly (see
// ./tolerance). Required: only the user-info's `sub` (the standard guarantees nothing else).
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
} from './common';

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
