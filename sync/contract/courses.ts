// The courses area: the course module's sync collections, the tables the reads of courses,
// clients and companies read, and its commands: new courses (course.create, with their dates and a new location in
// `included`), with their schemas and their writes. A course's participations and custom fields
// have files of their own: participations.ts, customfields.ts.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import {
  amount,
  dateTime,
  ids,
  isNewId,
  named,
  nonBlank,
  say,
  text,
  toMany,
  toOne,
  toOneOrNull,
  type Collections,
  type Reads,
  type RecordTables,
  type WriteSpecs,
} from './schema-kit';
import type { CourseDetail } from '../contract';

/**
 * The course module's sync collections (see Collections), course types first: the service
 * answers them 423 when the organisation has not licensed the module, and the rest are skipped.
 */
export const collections = {
  course_types: { tables: ['course_types'], words: 'course types' },
  uvts: { tables: ['uvts'], words: 'accident insurers' },
  clients: { tables: ['clients'], words: 'clients' },
  courses: { tables: ['courses', 'course_dates', 'addresses'], words: 'courses' },
  participations: {
    tables: ['participations', 'cancellations', 'companies'],
    words: 'participations',
  },
  customfields: { tables: ['customfields'], words: 'custom fields' },
  client_participants: { tables: ['client_participants'], words: 'client participants' },
} as const satisfies Collections;

/** The tables each read of the area reads. */
export const reads = {
  'courses.list': [
    'addresses',
    'clients',
    'course_trainers',
    'course_types',
    'courses',
    'participations',
    'replica_meta',
  ],
  'courses.days': [
    'addresses',
    'clients',
    'course_dates',
    'course_trainers',
    'course_types',
    'courses',
    'participations',
    'replica_meta',
  ],
  'courses.trainers': ['course_trainers', 'users'],
  'courses.get': [
    'addresses',
    'clients',
    'confirmations',
    'course_dates',
    'course_trainers',
    'course_types',
    'courses',
    'customfields',
    'participations',
    'sync_state',
    'users',
  ],
  'clients.list': ['client_participants', 'clients'],
  'clients.participants': ['client_participants'],
  'clients.get': [
    'addresses',
    'client_participants',
    'clients',
    'confirmations',
    'course_dates',
    'course_types',
    'courses',
    'participations',
    'sync_state',
  ],
  'companies.list': ['companies', 'uvts'],
} as const satisfies Reads;

/**
 * The tables a write of a course changes: its own, and those a change of its row may cascade to
 * (its dates, trainers, participations and custom fields).
 */
export const recordTables = {
  course: ['courses', 'course_dates', 'course_trainers', 'participations', 'customfields'],
} as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  course: CourseDetail;
}

// ---------------------------------------------------------------------------------------------
// course (with included course_date and address)

const courseAttributes = z
  .object({
    title: nonBlank,
    max_participants: z.number().int().min(0),
    comment: text,
    price: amount,
    organizer_on_site: text,
    uvt_registration_number: text,
  })
  .partial();
const COURSE_READ_ONLY = {
  course_number: 'service',
  status: 'service',
  number_of_participants: 'derived',
  created_at: 'service',
  updated_at: 'service',
} as const;

const addressAttributes = named(
  'address',
  'attribute',
  z
    .object({
      description: text,
      street: text,
      street_name: text,
      street_number: text,
      address_addition: text,
      postal_code: text,
      city: text,
      country: text,
      contact_person_salutation: text,
      contact_person_name: text,
      phone: text,
      mobile: text,
      email: text,
      geo: z.strictObject({
        lat: z.number().min(-90).max(90),
        lng: z.number().min(-180).max(180),
      }),
    })
    .partial(),
);

/** A course's new dates and new location travel in `included`, with `new-` ids. */
const courseIncluded = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('course_date'),
    id: ids.new,
    attributes: named(
      'course_date',
      'attribute',
      z.object({ from: dateTime, to: dateTime }).partial(),
      { required: ['from', 'to'] },
    ),
  }),
  z.strictObject({ type: z.literal('address'), id: ids.new, attributes: addressAttributes }),
]);

/**
 * Full linkage both ways, as the service demands: every `new-` date and location is in
 * `included`, every included item is named by a relationship, nothing is included twice.
 */
function courseLinkage(
  args: {
    relationships: {
      dates?: { data: { type: string; id: string }[] };
      location?: { data: { type: string; id: string } | null };
    };
    included?: { type: string; id: string; attributes: Record<string, unknown> }[];
  },
  ctx: z.core.$RefinementCtx,
): void {
  const included = args.included ?? [];
  const byKey = new Map<string, { index: number; used: boolean }>();
  included.forEach((item, index) => {
    const key = `${item.type} "${item.id}"`;
    if (byKey.has(key))
      say(
        ctx,
        ['included', index, 'id'],
        `${key} is included twice`,
        `${key} ist doppelt enthalten`,
      );
    else byKey.set(key, { index, used: false });
    const { from, to } = item.attributes;
    if (
      item.type === 'course_date' &&
      typeof from === 'string' &&
      typeof to === 'string' &&
      Date.parse(to) <= Date.parse(from)
    )
      say(
        ctx,
        ['included', index, 'attributes', 'to'],
        'a course date must end after it begins',
        'ein Kurstermin muss nach seinem Beginn enden',
      );
  });
  const take = (ref: { type: string; id: string }, path: PropertyKey[]) => {
    const key = `${ref.type} "${ref.id}"`;
    const entry = byKey.get(key);
    if (entry) entry.used = true;
    else say(ctx, path, `${key} is not in included`, `${key} fehlt in included`);
  };
  // A missing `dates` is reported as required already (the refinement still runs then).
  const given = args.relationships.dates;
  const dates = given?.data ?? [];
  if (given && dates.length === 0)
    say(
      ctx,
      ['relationships', 'dates', 'data'],
      'a course needs at least one date',
      'ein Kurs braucht mindestens einen Termin',
    );
  dates.forEach((ref, index) => take(ref, ['relationships', 'dates', 'data', index]));
  const location = args.relationships.location?.data;
  if (location && isNewId(location.id)) take(location, ['relationships', 'location', 'data']);
  for (const [key, { index, used }] of byKey) {
    if (!used)
      say(
        ctx,
        ['included', index],
        `included ${key} is not named by a relationship`,
        `mitgesendetes ${key} wird von keiner Beziehung genannt`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  /** A new course with its dates (and maybe a new location) in `included`; it starts as draft. */
  'course.create': z
    .strictObject({
      attributes: named('course', 'attribute', courseAttributes, {
        readOnly: COURSE_READ_ONLY,
      }).optional(),
      relationships: named(
        'course',
        'relationship',
        z
          .object({
            course_type: toOne('course_type', ids.service),
            dates: toMany('course_date', ids.new),
            location: toOneOrNull('address', ids.newOrService),
            client: toOneOrNull('client', ids.service),
            trainers: toMany('user', ids.user),
          })
          .partial(),
        { required: ['course_type', 'dates'] },
      ),
      included: z.array(courseIncluded).optional(),
    })
    .superRefine(courseLinkage),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'course.create': {
    type: 'course',
    verb: 'create',
    method: 'POST',
    path: () => '/courses',
    documentType: 'course',
  },
};
