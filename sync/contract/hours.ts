// The hours area's commands: hours entries (helferstunden.*) and their occasions
// (helferstunden_anlass.*), with their schemas and their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import {
  amount,
  date,
  dateTime,
  ids,
  named,
  nonBlank,
  requireChange,
  say,
  text,
  toOne,
  type Collections,
  type Reads,
  type RecordTables,
  type WriteSpecs,
} from './schema-kit';
import type { HoursItem, QueryResults } from '../contract';

/** The area's sync collections (see Collections). */
export const collections = {
  helferstunden: {
    tables: ['helferstunden', 'helferstunden_anlaesse', 'helferstunden_typen', 'anlass_referenzen'],
    words: 'volunteer hours',
  },
  helferstunden_einstellungen: { tables: ['singletons'], words: 'hour settings' },
} as const satisfies Collections;

/** The tables each read of the area reads. */
export const reads = {
  'hours.list': [
    'helferstunden',
    'helferstunden_anlaesse',
    'helferstunden_typen',
    'replica_meta',
    'users',
  ],
  'hours.totals': ['helferstunden', 'helferstunden_typen', 'replica_meta', 'users'],
  'hours.settings': ['helferstunden_typen', 'singletons'],
  'hours.summary': ['helferstunden', 'helferstunden_typen', 'replica_meta'],
  'hours.types': ['helferstunden_typen'],
  'hours.years': ['helferstunden', 'replica_meta'],
  'hours.occasions': ['courses', 'helferstunden_anlaesse'],
  'hours.suggestions': [
    'course_dates',
    'course_trainers',
    'courses',
    'helferstunden',
    'replica_meta',
  ],
} as const satisfies Reads;

/** The tables a write of each of the area's resource types changes. */
export const recordTables = {
  helferstunden: ['helferstunden'],
  helferstunden_anlass: ['helferstunden_anlaesse'],
} as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  helferstunden: HoursItem;
  helferstunden_anlass: QueryResults['hours.occasions'][number];
}

// ---------------------------------------------------------------------------------------------
// helferstunden, helferstunden_anlass

const hoursAttributes = z
  .object({
    von: dateTime,
    /** null: open end. */
    bis: dateTime.nullable(),
    stunden: z.number().positive().max(1000),
    anfahrt_km: amount.nullable(),
    freies_zahlenfeld: z.number().nullable(),
    bemerkung: text,
    /** Approval: the service lets only office staff set it. */
    freigegeben: z.boolean(),
  })
  .partial();
const HOURS_READ_ONLY = { created_at: 'service', updated_at: 'service' } as const;
const hoursRelationships = z
  .object({
    anlass: toOne('helferstunden_anlass', ids.record),
    typ: toOne('helferstunden_typ', ids.service),
    user: toOne('user', ids.user),
  })
  .partial();

/** An end before the start is refused when both are in the same command. */
function endAfterStart(
  args: { attributes?: { von?: string; bis?: string | null } },
  ctx: z.core.$RefinementCtx,
): void {
  const { von, bis } = args.attributes ?? {};
  if (typeof von === 'string' && typeof bis === 'string' && Date.parse(bis) < Date.parse(von))
    say(ctx, ['attributes', 'bis'], 'bis lies before von', 'bis liegt vor von');
}

export const ANLASS_TYPES = ['dienst', 'termin', 'kurs', 'sonstiges'] as const;
const anlassAttributes = z
  .object({ typ: z.enum(ANLASS_TYPES), beschreibung: nonBlank, datum: date })
  .partial();
const ANLASS_READ_ONLY = { updated_at: 'service' } as const;

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  'helferstunden.create': z
    .strictObject({
      attributes: named('helferstunden', 'attribute', hoursAttributes, {
        required: ['von', 'stunden'],
        readOnly: HOURS_READ_ONLY,
      }),
      relationships: named('helferstunden', 'relationship', hoursRelationships, {
        required: ['anlass', 'typ'],
      }),
    })
    .superRefine(endAfterStart),
  'helferstunden.update': z
    .strictObject({
      id: ids.record,
      attributes: named('helferstunden', 'attribute', hoursAttributes, {
        readOnly: HOURS_READ_ONLY,
      }).optional(),
      relationships: named('helferstunden', 'relationship', hoursRelationships).optional(),
    })
    .superRefine(requireChange('attributes', 'relationships'))
    .superRefine(endAfterStart),
  'helferstunden.delete': z.strictObject({ id: ids.record }),

  'helferstunden_anlass.create': z.strictObject({
    attributes: named('helferstunden_anlass', 'attribute', anlassAttributes, {
      required: ['typ', 'beschreibung'],
      readOnly: ANLASS_READ_ONLY,
    }),
  }),
  'helferstunden_anlass.update': z
    .strictObject({
      id: ids.record,
      attributes: named('helferstunden_anlass', 'attribute', anlassAttributes, {
        readOnly: ANLASS_READ_ONLY,
      }),
    })
    .superRefine(requireChange('attributes')),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'helferstunden.create': {
    type: 'helferstunden',
    verb: 'create',
    method: 'POST',
    path: () => '/helferstunden',
    documentType: 'helferstunden',
  },
  'helferstunden.update': {
    type: 'helferstunden',
    verb: 'update',
    method: 'PATCH',
    path: ({ id }) => `/helferstunden/${id}`,
    documentType: 'helferstunden',
  },
  'helferstunden.delete': {
    type: 'helferstunden',
    verb: 'delete',
    method: 'DELETE',
    path: ({ id }) => `/helferstunden/${id}`,
    documentType: null,
  },
  'helferstunden_anlass.create': {
    type: 'helferstunden_anlass',
    verb: 'create',
    method: 'POST',
    path: () => '/helferstunden/anlass',
    documentType: 'helferstunden_anlass',
  },
  'helferstunden_anlass.update': {
    type: 'helferstunden_anlass',
    verb: 'update',
    method: 'PATCH',
    path: ({ id }) => `/helferstunden/anlass/${id}`,
    documentType: 'helferstunden_anlass',
  },
};
