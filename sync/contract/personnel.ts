// The personnel area's commands: people (user.*, the service's Personal, with their licence and
// qualifications) and their trainings (ausbildung.delete), with their schemas and their writes.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import {
  checkedString,
  dateOrEmpty,
  emailOrEmpty,
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
import type { PersonDetail } from '../contract';

/** The area's sync collections (see Collections). */
export const collections = {
  personal: { tables: ['users', 'organisations'], words: 'people' },
  ausbildungen: { tables: ['ausbildungen'], words: 'trainings' },
  person_details: { tables: ['ueberpruefungen', 'ehrungen'], words: 'checks and honours' },
} as const satisfies Collections;

/** The tables each read of the area reads. */
export const reads = {
  'personnel.list': ['qualifikationen', 'users', 'users_by_status'],
  'personnel.get': [
    'ausbildungen',
    'confirmations',
    'ehrungen',
    'organisations',
    'qualifikationen',
    'sync_state',
    'ueberpruefungen',
    'users',
  ],
  'personnel.countByStatus': ['users_by_status'],
  'personnel.facets': ['qualifikationen', 'users'],
  'personnel.due': ['ausbildungen', 'confirmations', 'ueberpruefungen', 'users'],
} as const satisfies Reads;

/**
 * The tables a write of each of the area's resource types changes: its own, and for a person
 * those a change of the row may cascade to (qualifications, trainings, checks and honours) and
 * the people per status its triggers keep.
 */
export const recordTables = {
  user: [
    'users',
    'qualifikationen',
    'ausbildungen',
    'ueberpruefungen',
    'ehrungen',
    'users_by_status',
  ],
  ausbildung: ['ausbildungen'],
} as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  user: PersonDetail;
  ausbildung: PersonDetail['ausbildungen'][number];
}

// ---------------------------------------------------------------------------------------------
// user (Personal): user_post, user_patch, user_put

/** The rights a person may hold (SERVICE-NOTES). */
export const USER_RIGHTS = [
  'helfer',
  'termine',
  'sandienst',
  'kurse',
  'rechnung',
  'stunden',
  'eigenestunden',
  'mitarbeiter',
  'rundnachrichten',
  'sms',
  'material',
  'forum',
  'aufgaben',
  'adressen',
  'dokumente',
  'rechnungsansicht',
  'admin',
] as const;
const USER_STATUSES = ['aktiv', 'eingeschraenkt', 'extern', 'gesperrt'] as const;

const QUALIFICATION_PAIRS = [
  ['position', 'rang'],
  ['position', 'name_kurz'],
  ['zentralliste_id', 'zentralliste_rang'],
  ['zentralliste_id', 'zentralliste_name_kurz'],
] as const;
const PAIR_MEMBERS = [
  'position',
  'rang',
  'name_kurz',
  'zentralliste_id',
  'zentralliste_rang',
  'zentralliste_name_kurz',
] as const;
const listNumber = z.number().int().positive();

/**
 * One qualification edit, named by exactly one pair: the first value picks the list, the
 * second the rank; a second value of `null` removes the person's qualification of that list.
 */
export const qualificationEdit = z
  .strictObject({
    position: listNumber.optional(),
    rang: listNumber.nullable().optional(),
    name_kurz: nonBlank.nullable().optional(),
    zentralliste_id: listNumber.optional(),
    zentralliste_rang: listNumber.nullable().optional(),
    zentralliste_name_kurz: nonBlank.nullable().optional(),
    erwerb_datum: dateOrEmpty.optional(),
  })
  .superRefine((edit, ctx) => {
    const present = PAIR_MEMBERS.filter((member) => edit[member] !== undefined);
    const fits =
      present.length === 2 &&
      QUALIFICATION_PAIRS.some(([list, rank]) => present.includes(list) && present.includes(rank));
    if (fits) return;
    const got = present.join(', ') || 'none';
    say(
      ctx,
      [],
      'a qualification is named by exactly one pair: (position, rang), (position, name_kurz), ' +
        `(zentralliste_id, zentralliste_rang) or (zentralliste_id, zentralliste_name_kurz); got ${got}`,
      'eine Qualifikation wird durch genau ein Paar bestimmt: (position, rang), (position, name_kurz), ' +
        `(zentralliste_id, zentralliste_rang) oder (zentralliste_id, zentralliste_name_kurz); erhalten: ${got === 'none' ? 'keines' : got}`,
    );
  });

const userShape = {
  anrede: z.enum(['Herr', 'Frau', '']),
  vorname: nonBlank,
  nachname: nonBlank,
  username: text,
  kuerzel: text,
  telpriv: text,
  teldienst: text,
  handy: text,
  email: emailOrEmpty,
  adresse: text,
  plz: text,
  ort: text,
  land: text,
  gebdat: dateOrEmpty,
  gebort: text,
  gruppen_namen: z.array(text),
  orgakuerzel: text,
  leitung: z.boolean(),
  status: z.enum(USER_STATUSES),
  rechte: z.array(z.enum(USER_RIGHTS)),
  mitgliednr: text,
  mitglied_seit: dateOrEmpty,
  austritt_datum: dateOrEmpty,
  beruf: text,
  arbeitgeber: text,
  bemerkung: text,
  funktion: text,
  kontoinhaber: text,
  iban: text,
  bic: text,
  kreditinstitut: text,
  angehoerige: text,
  ernaehrung: text,
  allerg_intol: text,
  /** Merged into the stored licence: give only what changes. */
  fahrerlaubnis: z
    .strictObject({
      klassen: z.array(text),
      beschraenkung: text,
      fuehrerscheinnummer: text,
      fuehrerscheindatum: dateOrEmpty,
    })
    .partial(),
  benutzerdefinierte_felder: z.array(z.strictObject({ id: text, name: text, value: text })),
  qualifikationen: z.array(qualificationEdit),
};
const USER_READ_ONLY = { name: 'derived', gesperrt: 'derived', ausbildungen: 'own' } as const;
const userAttributes = z.object(userShape).partial();
const userCreateAttributes = named('user', 'attribute', userAttributes, {
  required: ['vorname', 'nachname'],
  readOnly: USER_READ_ONLY,
});
const userChangeAttributes = named('user', 'attribute', userAttributes, {
  readOnly: USER_READ_ONLY,
});

/** `mitgliednr` as a path identifier: some text, encoded into the path by WRITE_COMMANDS. */
const mitgliednr = checkedString(
  (value) => value.trim() !== '' && value.length <= 100,
  'expected a membership number (1 to 100 characters)',
  'erwartet eine Mitgliedsnummer (1 bis 100 Zeichen)',
);

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  /** A new person; offline it gets a temporary id `local-<uuid>`. */
  'user.create': z.strictObject({
    attributes: userCreateAttributes,
    /** As agreed; note the sandbox's user_post refuses every relationship today. */
    relationships: named(
      'user',
      'relationship',
      z.object({ organisation: toOne('organisation', ids.service) }).partial(),
    ).optional(),
  }),
  'user.update': z
    .strictObject({ id: ids.user, attributes: userChangeAttributes })
    .superRefine(requireChange('attributes')),
  /**
   * PUT by identifier: creates the person when nobody matches (then vorname and nachname are
   * required; the handler decides, as only it knows whether someone matches).
   */
  'user.upsert': z
    .discriminatedUnion('identifierName', [
      z.strictObject({
        identifierName: z.literal('user_id'),
        identifierValue: ids.serviceUser,
        attributes: userChangeAttributes,
      }),
      z.strictObject({
        identifierName: z.literal('mitgliednr'),
        identifierValue: mitgliednr,
        attributes: userChangeAttributes,
      }),
    ])
    .superRefine(requireChange('attributes')),
  'ausbildung.delete': z.strictObject({ userId: ids.user, id: ids.service }),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'user.create': {
    type: 'user',
    verb: 'create',
    method: 'POST',
    path: () => '/personal',
    documentType: 'user',
  },
  'user.update': {
    type: 'user',
    verb: 'update',
    method: 'PATCH',
    path: ({ id }) => `/personal/${id}`,
    documentType: 'user',
  },
  'user.upsert': {
    type: 'user',
    verb: 'upsert',
    method: 'PUT',
    path: ({ identifierName, identifierValue }) =>
      `/personal/${identifierName}/${encodeURIComponent(identifierValue)}`,
    documentType: 'user',
  },
  'ausbildung.delete': {
    type: 'ausbildung',
    verb: 'delete',
    method: 'DELETE',
    path: ({ userId, id }) => `/personal/${userId}/ausbildungen/${id}`,
    documentType: null,
  },
};
