// The sync's collections by area, as the UI shows the areas: each collection with the replica
// tables it fills and its name in words. The areas with commands declare theirs in their files
// (personnel.ts, calendars.ts, ...); the three without (the organisation, tax rates, forms) here.
// Imports the contract only: the renderer imports it through sync/contract.ts.
import * as calendars from './calendars';
import * as courses from './courses';
import * as hours from './hours';
import * as notifications from './notifications';
import * as personnel from './personnel';
import type { Collections } from './schema-kit';

const organisation = {
  orga: { tables: ['singletons'], words: 'organisation' },
  userinfo: { tables: ['singletons'], words: 'own account' },
} as const satisfies Collections;

const taxRates = {
  steuersaetze: { tables: ['steuersaetze'], words: 'tax rates' },
} as const satisfies Collections;

const forms = {
  formulare: { tables: ['formulare'], words: 'forms' },
} as const satisfies Collections;

/** Each area's collections, in the order the UI lists the areas. */
export const AREA_COLLECTIONS = {
  personnel: personnel.collections,
  organisation,
  calendars: calendars.collections,
  notifications: notifications.collections,
  hours: hours.collections,
  taxRates,
  courses: courses.collections,
  forms,
} as const;
export type AreaName = keyof typeof AREA_COLLECTIONS;

/** Every collection of the areas, by name. */
export const COLLECTIONS: Collections = Object.assign({}, ...Object.values(AREA_COLLECTIONS));

/** The service's areas and the sync collections each is made of (in their declared order). */
export const AREAS = namesOf(AREA_COLLECTIONS);

function namesOf<A extends Record<string, Collections>>(areas: A) {
  const names = {} as Record<keyof A, readonly string[]>;
  for (const area of Object.keys(areas) as (keyof A)[])
    names[area] = Object.keys(areas[area] as Collections);
  return names as Readonly<typeof names>;
}
