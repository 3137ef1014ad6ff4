// The user-info document (seed, section 2) built from the user's personnel record. Claim
// values follow OpenID Connect where the seed does not say otherwise; `birthdate` is a
// date-time because the seed says so (OIDC would use a bare date).
import type { Store, StoredResource } from '../data/store';
import { identityOf, ownOrganisation, type OrganisationIdentity } from './organisation';

export interface UserInfoAddress {
  formatted: string;
  street_address: string;
  locality: string;
  postal_code: string;
  country: string;
}

export interface UserInfo {
  sub: string;
  name: string;
  given_name: string;
  family_name: string;
  preferred_username: string;
  email: string;
  email_verified: boolean;
  gender: string;
  birthdate: string;
  phone_number: string;
  phone_number_verified: boolean;
  address: UserInfoAddress;
  updated_at: number;
  organisation_key: string;
  organisation: string;
}

const GENDER_BY_ANREDE: Record<string, string> = { Herr: 'male', Frau: 'female' };

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const berlinOffset = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Berlin',
  timeZoneName: 'longOffset',
});

/**
 * Midnight in Berlin of a `YYYY-MM-DD` date, with its offset, e.g. `1985-07-14T00:00:00+02:00`.
 * The offset is read at 00:00 UTC of that day: Berlin changes its clocks at 02:00/03:00 local
 * time, so that instant always has the same offset as local midnight.
 */
export function berlinMidnight(date: string): string {
  const zone = berlinOffset
    .formatToParts(new Date(`${date}T00:00:00Z`))
    .find((part) => part.type === 'timeZoneName')?.value;
  const offset = zone === 'GMT' || zone === undefined ? '+00:00' : zone.slice('GMT'.length);
  return `${date}T00:00:00${offset}`;
}

/** The organisation the user belongs to: the user's relationship, else the own organisation. */
function organisationOf(store: Store, user: StoredResource): OrganisationIdentity {
  const link = user.relationships.organisation;
  const linked = link && !Array.isArray(link) ? store.get('organisation', link.id) : undefined;
  return linked ? identityOf(linked.attributes) : ownOrganisation(store);
}

export function buildUserInfo(store: Store, userId: string): UserInfo | undefined {
  const user = store.get('user', userId);
  if (!user) return undefined;
  const a = user.attributes;
  const street = text(a.adresse);
  const postalCode = text(a.plz);
  const locality = text(a.ort);
  const country = text(a.land);
  const cityLine = [postalCode, locality].filter(Boolean).join(' ');
  const birthday = text(a.gebdat);
  const organisation = organisationOf(store, user);
  return {
    sub: user.id,
    name: [text(a.vorname), text(a.nachname)].filter(Boolean).join(' '),
    given_name: text(a.vorname),
    family_name: text(a.nachname),
    preferred_username: text(a.username),
    email: text(a.email),
    email_verified: text(a.email) !== '',
    gender: GENDER_BY_ANREDE[text(a.anrede)] ?? '',
    birthdate: /^\d{4}-\d{2}-\d{2}$/.test(birthday) ? berlinMidnight(birthday) : '',
    phone_number: text(a.handy) || text(a.telpriv) || text(a.teldienst),
    phone_number_verified: false,
    address: {
      formatted: [street, cityLine, country].filter(Boolean).join('\n'),
      street_address: street,
      locality,
      postal_code: postalCode,
      country,
    },
    updated_at: Math.floor(Date.parse(user.updatedAt) / 1000),
    organisation_key: organisation.key,
    organisation: organisation.name,
  };
}
