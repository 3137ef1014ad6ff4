// The participations area: the tables its read reads, and its commands, a course's participants
// (participation.*, with a new company in `included`), with their schemas and their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import {
  dateOrEmpty,
  emailOrEmpty,
  ids,
  isNewId,
  named,
  nonBlank,
  requireChange,
  say,
  text,
  toOneOrNull,
  type Reads,
  type RecordTables,
  type WriteSpecs,
} from './schema-kit';
import type { ParticipationItem } from '../contract';

/** The tables each read of the area reads. */
export const reads = {
  'participations.list': ['companies', 'participations', 'uvts'],
} as const satisfies Reads;

/** The tables a write of each of the area's resource types changes. */
export const recordTables = { participation: ['participations'] } as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  participation: ParticipationItem;
}

// ---------------------------------------------------------------------------------------------
// participation (with an included company)

export const PARTICIPATION_STATUSES = ['registered', 'confirmed', 'attended', 'absent'] as const;
const participationAttributes = z
  .object({
    first_name: nonBlank,
    last_name: nonBlank,
    birthday: dateOrEmpty,
    email: emailOrEmpty,
    phone: text,
    /** Not `cancelled`: that is participation.cancel. */
    status: z.enum(PARTICIPATION_STATUSES, {
      error: (issue) =>
        issue.input === 'cancelled'
          ? 'status "cancelled" is set by participation.cancel'
          : `expected one of ${PARTICIPATION_STATUSES.join(', ')}`,
    }),
    attended: z.boolean(),
    paid: z.boolean(),
    certificate_number: text,
    comment: text,
  })
  .partial();
const PARTICIPATION_READ_ONLY = { created_at: 'service', updated_at: 'service' } as const;
const participationRelationships = named(
  'participation',
  'relationship',
  z
    .object({
      /** An existing company (digits) or the new one in `included` (`new-…`). */
      company: toOneOrNull('company', ids.newOrService),
      uvt: toOneOrNull('uvt', ids.service),
      client: toOneOrNull('client', ids.service),
      user: toOneOrNull('user', ids.user),
    })
    .partial(),
  { readOnly: { course: 'path' } },
);
const newCompany = z.strictObject({
  type: z.literal('company'),
  id: ids.new,
  attributes: named(
    'company',
    'attribute',
    z
      .object({
        name: nonBlank,
        street: text,
        postal_code: text,
        city: text,
        uvt_member_number: text,
      })
      .partial(),
    { required: ['name'] },
  ),
  relationships: named(
    'company',
    'relationship',
    z.object({ uvt: toOneOrNull('uvt', ids.service) }).partial(),
  ).optional(),
});

/** At most one new company, and it is the one `relationships.company` names (both ways). */
function companyLinkage(
  args: {
    relationships?: { company?: { data: { id: string } | null } };
    included?: { id: string }[];
  },
  ctx: z.core.$RefinementCtx,
): void {
  const included = args.included ?? [];
  if (included.length > 1)
    say(
      ctx,
      ['included', 1],
      'at most one new company can be sent with a participation',
      'mit einer Teilnahme kann höchstens eine neue Firma gesendet werden',
    );
  const named = args.relationships?.company?.data;
  const [company] = included;
  if (company && named?.id !== company.id)
    say(
      ctx,
      ['included', 0],
      `the new company "${company.id}" must be named by relationships.company`,
      `die neue Firma "${company.id}" muss in relationships.company genannt sein`,
    );
  if (named && isNewId(named.id) && !included.some((item) => item.id === named.id))
    say(
      ctx,
      ['relationships', 'company', 'data', 'id'],
      `company "${named.id}" is not in included`,
      `Firma "${named.id}" fehlt in included`,
    );
}

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  'participation.create': z
    .strictObject({
      courseId: ids.record,
      attributes: named('participation', 'attribute', participationAttributes, {
        required: ['first_name', 'last_name'],
        readOnly: PARTICIPATION_READ_ONLY,
      }),
      relationships: participationRelationships.optional(),
      included: z.array(newCompany).optional(),
    })
    .superRefine(companyLinkage),
  'participation.update': z
    .strictObject({
      courseId: ids.record,
      id: ids.record,
      attributes: named('participation', 'attribute', participationAttributes, {
        readOnly: PARTICIPATION_READ_ONLY,
      }).optional(),
      relationships: participationRelationships.optional(),
      included: z.array(newCompany).optional(),
    })
    .superRefine(requireChange('attributes', 'relationships'))
    .superRefine(companyLinkage),
  /** Deregisters: the participation's status becomes `cancelled` (final). */
  'participation.cancel': z.strictObject({
    courseId: ids.record,
    id: ids.record,
    attributes: named('cancellation', 'attribute', z.object({ reason: text }).partial(), {
      readOnly: { cancelled_at: 'service' },
    }).optional(),
  }),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'participation.create': {
    type: 'participation',
    verb: 'create',
    method: 'POST',
    path: ({ courseId }) => `/courses/${courseId}/participations`,
    documentType: 'participation',
  },
  'participation.update': {
    type: 'participation',
    verb: 'update',
    method: 'PATCH',
    path: ({ courseId, id }) => `/courses/${courseId}/participations/${id}`,
    documentType: 'participation',
  },
  'participation.cancel': {
    type: 'participation',
    verb: 'cancel',
    method: 'POST',
    path: ({ courseId, id }) => `/courses/${courseId}/participations/${id}/cancel`,
    documentType: 'cancellation',
  },
};
