// The notifications area's commands: marking a notification read or unread and deleting it
// (benachrichtigung.*), with their schemas and their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import { ids, named, type WriteSpecs } from './schema-kit';

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
