// The calendars area's commands: the person's own calendars (kalender.*), with their schemas and
// their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import { checkedString, ids, named, nonBlank, text, type WriteSpecs } from './schema-kit';

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
