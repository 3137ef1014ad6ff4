// Which sync profile fits an account: the office profile reads everything the token may read,
// the whole staff first; a token that may not read people is a trainer's, whose profile reads the
// own courses and hours. Told by the scopes a login granted, or by the service refusing people.
import type { SyncSummary } from './engine';
import type { SyncProfile } from './options';

/** What the office profile cannot do without: reading the staff. */
const PEOPLE_SCOPE = 'personal:read';

/** The profile the granted scopes (a token answer's space-separated `scope`) fit; undefined when it named none. */
export function profileForScopes(scope: string | undefined): SyncProfile | undefined {
  const scopes = (scope ?? '').split(' ').filter((part) => part !== '');
  if (scopes.length === 0) return undefined;
  return scopes.includes(PEOPLE_SCOPE) ? 'office' : 'trainer';
}

/** An office sync that the service refused people (403): the trainer's profile fits the token. */
export function refusedPeople(summary: Pick<SyncSummary, 'profile' | 'unavailable'>): boolean {
  return (
    summary.profile === 'office' &&
    summary.unavailable.some(
      (area) => area.collection === 'personal' && area.reason === 'forbidden',
    )
  );
}
