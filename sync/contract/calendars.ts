// The calendars area: the person's own calendars (kalender.*): their sync collection, the tables
// its reads read, its commands with their schemas and their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import type { QueryResults } from '../contract';
import {
  checkedString,
  ids,
  named,
  nonBlank,
  text,
  type Collections,
  type Reads,
  type RecordTables,
  type WriteSpecs,
} from './schema-kit';

/** The area's sync collections (see Collections). */
export const collections = {
  kalender: { tables: ['kalender'], words: 'calendars' },
} as const satisfies Collections;

/** The tables each read of the area reads. */
export const reads = {
  'calendars.list': ['kalender'],
  'calendars.icalUrl': ['kalender'],
} as const satisfies Reads;

/** The tables a write of each of the area's resource types changes. */
export const recordTables = { kalender: ['kalender'] } as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  kalender: QueryResults['calendars.list'][number];
}

// ---------------------------------------------------------------------------------------------
// kalender

const kalenderCreateAttributes = named(
  'kalender',
  'attribute',
  z
    .object({
      name: nonBlank,
      farbe: checkedString(
        (value) => /^#[0-9a-fA-F]{6}$/.test(value),
        'expected a colour #RRGGBB',
        'erwartet eine Farbe #RRGGBB',
      ),
      beschreibung: text,
    })
    .partial(),
  { required: ['name'], readOnly: { typ: 'service', ical_url: 'service', created_at: 'service' } },
);

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  'kalender.create': z.strictObject({ attributes: kalenderCreateAttributes }),
  'kalender.delete': z.strictObject({ id: ids.record }),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'kalender.create': {
    type: 'kalender',
    verb: 'create',
    method: 'POST',
    path: () => '/kalender',
    documentType: 'kalender',
  },
  'kalender.delete': {
    type: 'kalender',
    verb: 'delete',
    method: 'DELETE',
    path: ({ id }) => `/kalender/${id}`,
    documentType: null,
  },
};
