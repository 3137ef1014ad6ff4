// The organisation the sandbox serves: its short name (the `ov` authorize parameter and the
// `organisation_key` claim) and its name.
import type { Store } from '../data/store';

export interface OrganisationIdentity {
  key: string;
  name: string;
}

export function identityOf(attributes: Record<string, unknown>): OrganisationIdentity {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { key: text(attributes.kuerzel), name: text(attributes.name) };
}

/** From the master data (`orga`); empty strings while the store holds none. */
export function ownOrganisation(store: Store): OrganisationIdentity {
  return identityOf(store.all('orga')[0]?.attributes ?? {});
}
