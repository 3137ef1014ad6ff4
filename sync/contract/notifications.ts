// The notifications area: its sync collection, the tables its reads read, and its commands,
// marking a notification read or unread and deleting it (benachrichtigung.*), with their schemas
// and their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import type { QueryResults } from '../contract';
import {
  ids,
  named,
  type Collections,
  type Reads,
  type RecordTables,
  type WriteSpecs,
} from './schema-kit';

/** The area's sync collections (see Collections). */
export const collections = {
  benachrichtigungen: { tables: ['benachrichtigungen'], words: 'notifications' },
} as const satisfies Collections;

/** The tables each read of the area reads. */
export const reads = {
  'notifications.list': ['benachrichtigungen'],
  'notifications.count': ['benachrichtigungen', 'replica_meta'],
} as const satisfies Reads;

/** The tables a write of each of the area's resource types changes. */
export const recordTables = {
  benachrichtigung: ['benachrichtigungen'],
} as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  benachrichtigung: QueryResults['notifications.list'][number];
}

// ---------------------------------------------------------------------------------------------
// benachrichtigung

const BENACHRICHTIGUNG_READ_ONLY = {
  titel: 'service',
  text: 'service',
  kategorie: 'service',
  erstellt_am: 'service',
  link: 'service',
} as const;

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  /** Marks a notification read or unread. */
  'benachrichtigung.update': z.strictObject({
    id: ids.notification,
    attributes: named(
      'benachrichtigung',
      'attribute',
      z.object({ gelesen: z.boolean() }).partial(),
      { required: ['gelesen'], readOnly: BENACHRICHTIGUNG_READ_ONLY },
    ),
  }),
  'benachrichtigung.delete': z.strictObject({ id: ids.notification }),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'benachrichtigung.update': {
    type: 'benachrichtigung',
    verb: 'update',
    method: 'PATCH',
    path: ({ id }) => `/benachrichtigungen/${id}`,
    documentType: 'benachrichtigung',
  },
  'benachrichtigung.delete': {
    type: 'benachrichtigung',
    verb: 'delete',
    method: 'DELETE',
    path: ({ id }) => `/benachrichtigungen/${id}`,
    documentType: null,
  },
};
