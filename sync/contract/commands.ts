// The contract's commands: every write the UI may send (one per write operation of the service,
// named `<resource type>.<verb>`) and the outbox's own, each with a zod schema for its
// arguments, plus the types of their results and errors. A write's arguments are JSON:API-style
// (`attributes`, `relationships`, `included`) and hold the service's input rules (the seed and
// sandbox/RESOURCES.md), so a command the schema accepts is one the service should accept too:
// a mistake is refused at once, on screen, instead of parking in the outbox hours later.
// WRITE_COMMANDS is the one place that says which resource, method and path each write uses.
// Imports zod only: the renderer (a browser) imports this file through sync/contract.ts.
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Issues in two languages

/** Adds a custom issue: English `message`, German in `params.de` (the dispatcher shows both). */
function say(ctx: z.core.$RefinementCtx, path: PropertyKey[], en: string, de: string): void {
  ctx.addIssue({ code: 'custom', path, message: en, params: { de } });
}

/** A value for a message: quoted, and short (ids and names end up in messages, not whole bodies). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string that must pass `test`; refused with a custom (bilingual) issue otherwise. */
function checkedString(test: (value: string) => boolean, en: string, de: string) {
  return z.string().superRefine((value, ctx) => {
    if (!test(value))
      say(ctx, [], `${en}, got ${shown(value)}`, `${de}, erhalten: ${shown(value)}`);
  });
}

// ---------------------------------------------------------------------------------------------
// Values: the service's formats, nothing looser (a client sends clean values)

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The service's 'Y-m-dTH:i:sP': seconds and a numeric offset, no fractions, no `Z`. */
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d[+-]([01]\d|2[0-3]):[0-5]\d$/;

/** A real calendar date `YYYY-MM-DD` (no 2026-02-30). */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A date-time as the service writes it, e.g. `2026-03-01T08:00:00+01:00`. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  return match !== null && isDate(match[1] ?? '');
}

const date = checkedString(isDate, 'expected a date YYYY-MM-DD', 'erwartet ein Datum JJJJ-MM-TT');
/** Personnel dates are `""` when empty, never null (as the service writes them). */
const dateOrEmpty = checkedString(
  (value) => value === '' || isDate(value),
  'expected a date YYYY-MM-DD or ""',
  'erwartet ein Datum JJJJ-MM-TT oder ""',
);
const dateTime = checkedString(
  isDateTime,
  'expected a date-time with offset such as 2026-03-01T08:00:00+01:00',
  'erwartet Datum und Uhrzeit mit Zeitzone, z. B. 2026-03-01T08:00:00+01:00',
);
const text = z.string();
const nonBlank = checkedString(
  (value) => value.trim() !== '',
  'must not be empty',
  'darf nicht leer sein',
);
const emailOrEmpty = z.union([z.literal(''), z.email('expected an e-mail address or ""')]);
/** Amounts the service stores as floats (hours, kilometres, prices): never negative. */
const amount = z.number().min(0);

// ---------------------------------------------------------------------------------------------
// Ids: they go into URL paths, so only the service's own forms and temporary ids pass

const LOCAL_ID = /^local-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NUMERIC_ID = /^\d{1,20}$/;
const USER_ID = /^[0-9a-f]{32}$/;
const NOTIFICATION_ID = /^\d{1,20}-[0-9a-f]{32}$/;
/** Ids of resources created with the request itself (`included`), as the service wants them. */
const NEW_ID = /^new-[A-Za-z0-9._-]{1,64}$/;

/** True for the temporary id of a record created offline: `local-<uuid v4>`. */
export function isLocalId(id: string): boolean {
  return LOCAL_ID.test(id);
}

/** True for an id that names a resource created with the same request: `new-…`. */
export function isNewId(id: string): boolean {
  return NEW_ID.test(id);
}

const ids = {
  /** Records the client may create offline: a numeric service id or a temporary id. */
  record: checkedString(
    (id) => NUMERIC_ID.test(id) || LOCAL_ID.test(id),
    'expected an id of digits or a temporary id local-<uuid>',
    'erwartet eine Id aus Ziffern oder eine vorläufige Id local-<uuid>',
  ),
  /** Records only the service creates (types, clients, trainings, ...): a numeric id. */
  service: checkedString(
    (id) => NUMERIC_ID.test(id),
    'expected an id of digits',
    'erwartet eine Id aus Ziffern',
  ),
  user: checkedString(
    (id) => USER_ID.test(id) || LOCAL_ID.test(id),
    'expected a user id (32 lowercase hex characters) or a temporary id local-<uuid>',
    'erwartet eine Personen-Id (32 Hex-Zeichen, klein) oder eine vorläufige Id local-<uuid>',
  ),
  serviceUser: checkedString(
    (id) => USER_ID.test(id),
    'expected a user id (32 lowercase hex characters)',
    'erwartet eine Personen-Id (32 Hex-Zeichen, klein)',
  ),
  notification: checkedString(
    (id) => NOTIFICATION_ID.test(id),
    'expected a notification id <digits>-<32 hex characters>',
    'erwartet eine Benachrichtigungs-Id <Ziffern>-<32 Hex-Zeichen>',
  ),
  /** A resource created with this request (`new-…`, in `included`). */
  new: checkedString(
    (id) => NEW_ID.test(id),
    'expected the id of an included new resource, new-…',
    'erwartet die Id einer mitgesendeten neuen Ressource, new-…',
  ),
  /** An existing resource (digits) or one created with this request (`new-…`). */
  newOrService: checkedString(
    (id) => NUMERIC_ID.test(id) || NEW_ID.test(id),
    'expected an id of digits or the id of an included new resource, new-…',
    'erwartet eine Id aus Ziffern oder die Id einer mitgesendeten neuen Ressource, new-…',
  ),
};

/** Ids of outbox entries and conflicts: the database's row ids. */
const rowId = z.number().int().positive();

// ---------------------------------------------------------------------------------------------
// Members with names: unknown and read-only attributes (and relationships) are refused by name

const READ_ONLY_REASONS = {
  derived: { en: 'the service derives it', de: 'der Dienst leitet es ab' },
  service: { en: 'the service sets it', de: 'der Dienst setzt es' },
  own: { en: 'it has operations of its own', de: 'dafür gibt es eigene Operationen' },
  path: { en: 'the path names it', de: 'der Pfad bestimmt es' },
} as const;
type ReadOnlyReason = keyof typeof READ_ONLY_REASONS;

/** `T` with the members `K` required (present and not undefined). */
type WithRequired<T, K extends PropertyKey> = {
  [P in keyof T as P extends K ? P : never]-?: Exclude<T[P], undefined>;
} & { [P in keyof T as P extends K ? never : P]?: T[P] };

interface NamedOptions<K extends string> {
  /** Members that must be given (the create's required values). */
  required?: readonly K[];
  /** Members the service shows but does not take, with the reason the message gives. */
  readOnly?: Readonly<Record<string, ReadOnlyReason>>;
}

/**
 * The members of `object` (attributes or relationships of `resource`; every member optional),
 * refusing every other member with an issue that names it. zod's strict objects only say
 * "unrecognized key"; this says whether the member is unknown or read-only, and runs even when
 * other members are invalid. Missing required members are named too ("vorname" is required),
 * where zod would say "expected string, received undefined".
 */
function named<O extends z.ZodObject, K extends keyof z.output<O> & string = never>(
  resource: string,
  kind: 'attribute' | 'relationship',
  object: O,
  { required = [], readOnly = {} }: NamedOptions<K> = {},
): z.ZodType<WithRequired<z.output<O>, K>, WithRequired<z.input<O>, K>> {
  const known = new Set(Object.keys(object.shape));
  const unknownDe = kind === 'attribute' ? 'unbekanntes Attribut' : 'unbekannte Beziehung';
  const checked = z.looseObject(object.shape).superRefine(
    (value, ctx) => {
      for (const member of required) {
        if (value[member] === undefined)
          say(ctx, [member], `"${member}" is required`, `"${member}" ist erforderlich`);
      }
      for (const member of Object.keys(value)) {
        if (known.has(member)) continue;
        // Own members only: `constructor` or `toString` is an unknown member, not Object's.
        const reason = Object.hasOwn(readOnly, member) ? readOnly[member] : undefined;
        if (reason) {
          const why = READ_ONLY_REASONS[reason];
          say(
            ctx,
            [member],
            `"${member}" is read-only (${why.en})`,
            `"${member}" ist schreibgeschützt (${why.de})`,
          );
        } else {
          say(
            ctx,
            [member],
            `unknown ${kind} "${member}" of ${resource}`,
            `${unknownDe} "${member}" bei ${resource}`,
          );
        }
      }
    },
    { when: (payload) => isPlainObject(payload.value) },
  );
  // The loose object's index signature is an implementation detail: every extra member is refused.
  return checked as unknown as z.ZodType<WithRequired<z.output<O>, K>, WithRequired<z.input<O>, K>>;
}

/** The number of members given (JSON has no `undefined`, but a caller in TypeScript might). */
function countGiven(value: object | undefined): number {
  return value ? Object.values(value).filter((member) => member !== undefined).length : 0;
}

/** Updates must change something: an empty PATCH is a mistake, not a no-op to queue. */
function requireChange(...members: ('attributes' | 'relationships')[]) {
  return (
    args: Partial<Record<'attributes' | 'relationships', object>>,
    ctx: z.core.$RefinementCtx,
  ) => {
    if (members.some((member) => countGiven(args[member]) > 0)) return;
    say(
      ctx,
      [members[0] ?? 'attributes'],
      `nothing to change: give at least one of ${members.join(' or ')}`,
      `nichts zu ändern: mindestens ein Wert in ${members.join(' oder ')} nötig`,
    );
  };
}

// ---------------------------------------------------------------------------------------------
// Relationships: `{ data: { type, id } | { type, id }[] | null }`

type IdSchema = z.ZodType<string, string>;

const identifier = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ type: z.literal(type), id });
const toOne = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ data: identifier(type, id) });
const toOneOrNull = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ data: identifier(type, id).nullable() });
const toMany = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ data: z.array(identifier(type, id)) });

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
// kalender, helferstunden, helferstunden_anlass, benachrichtigung

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

const BENACHRICHTIGUNG_READ_ONLY = {
  titel: 'service',
  text: 'service',
  kategorie: 'service',
  erstellt_am: 'service',
  link: 'service',
} as const;

// ---------------------------------------------------------------------------------------------
// course (with included course_date and address), participation, customfield

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

export const FIELD_TYPES = ['text', 'number', 'checkbox', 'date', 'select'] as const;
type FieldType = (typeof FIELD_TYPES)[number];
const customfieldAttributes = z
  .object({
    name: nonBlank,
    field_type: z.enum(FIELD_TYPES),
    options: z.array(nonBlank),
    value: text,
    required: z.boolean(),
    position: z.number().int().min(0),
  })
  .partial();

const FIELD_VALUES: Record<
  FieldType,
  { fits: (value: string, options: string[]) => boolean; en: string; de: string }
> = {
  text: { fits: () => true, en: 'text', de: 'Text' },
  number: {
    fits: (value) => /^-?\d+(\.\d+)?$/.test(value),
    en: 'a decimal number such as 12.5',
    de: 'eine Dezimalzahl wie 12.5',
  },
  checkbox: {
    fits: (value) => value === '0' || value === '1',
    en: '"0" or "1"',
    de: '"0" oder "1"',
  },
  date: { fits: isDate, en: 'a date YYYY-MM-DD', de: 'ein Datum JJJJ-MM-TT' },
  select: {
    fits: (value, options) => options.includes(value),
    en: 'one of the options',
    de: 'eine der Optionen',
  },
};

/**
 * The field's rules that concern several attributes, checked as far as the command tells:
 * on create the whole field (defaults: no options, empty value, not required), on update only
 * what the command itself gives.
 */
function customfieldRules(creating: boolean) {
  return (
    args: {
      attributes: {
        field_type?: FieldType;
        options?: string[];
        value?: string;
        required?: boolean;
      };
    },
    ctx: z.core.$RefinementCtx,
  ): void => {
    const { field_type: type, options, value, required } = args.attributes;
    if (type === 'select' && (creating || options !== undefined) && (options ?? []).length === 0)
      say(
        ctx,
        ['attributes', 'options'],
        'a select field needs at least one option',
        'ein Auswahlfeld braucht mindestens eine Option',
      );
    if (creating && required === true && !value)
      say(
        ctx,
        ['attributes', 'value'],
        'a required field needs a value',
        'ein Pflichtfeld braucht einen Wert',
      );
    if (type === undefined || value === undefined || value === '') return;
    if (type === 'select' && options === undefined && !creating) return;
    const rule = FIELD_VALUES[type];
    if (!rule.fits(value, options ?? []))
      say(
        ctx,
        ['attributes', 'value'],
        `the value of a ${type} field must be ${rule.en}`,
        `der Wert eines Felds vom Typ ${type} muss ${rule.de} sein`,
      );
  };
}

// ---------------------------------------------------------------------------------------------
// The outbox

export const OUTBOX_STATES = [
  'pending',
  'in_flight',
  'retrying',
  'parked',
  'unknown',
  'done',
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

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

  'kalender.create': z.strictObject({ attributes: kalenderCreateAttributes }),
  'kalender.delete': z.strictObject({ id: ids.record }),

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

  'customfield.create': z
    .strictObject({
      courseId: ids.record,
      attributes: named('customfield', 'attribute', customfieldAttributes, {
        required: ['name', 'field_type'],
      }),
    })
    .superRefine(customfieldRules(true)),
  'customfield.update': z
    .strictObject({
      courseId: ids.record,
      id: ids.record,
      attributes: named('customfield', 'attribute', customfieldAttributes),
    })
    .superRefine(requireChange('attributes'))
    .superRefine(customfieldRules(false)),
  'customfield.delete': z.strictObject({ courseId: ids.record, id: ids.record }),

  /** The operations not yet done (or those in `states`), oldest first. */
  'outbox.list': z.strictObject({ states: z.array(z.enum(OUTBOX_STATES)).optional() }),
  /** Sends a parked (or retrying) operation again now. */
  'outbox.retry': z.strictObject({ id: rowId }),
  /**
   * Replaces a parked operation's arguments. They are checked here only as an object: the
   * handler validates them with `commands[entry.command]`, like a new command.
   */
  'outbox.edit': z.strictObject({ id: rowId, arguments: z.record(z.string(), z.unknown()) }),
  /** Drops an operation that was not sent and restores the record's base in the replica. */
  'outbox.discard': z.strictObject({ id: rowId }),
  'conflicts.list': z.strictObject({}),
  /** One conflict is one field of one record: keep mine (sent as a PATCH) or take theirs. */
  'conflicts.resolve': z.strictObject({ id: rowId, take: z.enum(['mine', 'theirs']) }),

  /**
   * Fetches one parent's per-parent collections now, ahead of the rotation and outside the
   * sync's budget (a screen that opens a course or a person): at most once a minute per item.
   */
  'sync.refresh': z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('course'), id: ids.service }),
    z.strictObject({ kind: z.literal('person'), id: ids.serviceUser }),
    z.strictObject({ kind: z.literal('client'), id: ids.service }),
  ]),
} as const;

export type CommandName = keyof typeof commands;
export type CommandArgs<N extends CommandName> = z.input<(typeof commands)[N]>;
export type ParsedCommandArgs<N extends CommandName> = z.output<(typeof commands)[N]>;
/** The 20 record writes; the rest are the outbox's own commands. */
export type WriteCommandName = Exclude<
  CommandName,
  `outbox.${string}` | `conflicts.${string}` | `sync.${string}`
>;

export function isWriteCommand(name: string): name is WriteCommandName {
  return Object.hasOwn(WRITE_COMMANDS, name);
}

// ---------------------------------------------------------------------------------------------
// Where each write goes: the one place for resource type, method and path

/** The service's resource types the writes change. */
export type WriteResourceType =
  | 'user'
  | 'ausbildung'
  | 'kalender'
  | 'helferstunden'
  | 'helferstunden_anlass'
  | 'benachrichtigung'
  | 'course'
  | 'participation'
  | 'customfield';

export interface WriteCommandSpec<N extends WriteCommandName> {
  /** The record's resource type (participation.cancel changes a `participation`). */
  type: WriteResourceType;
  verb: 'create' | 'update' | 'upsert' | 'delete' | 'cancel';
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The service path, from parsed (valid) arguments; ids are safe in paths by their schemas. */
  path: (args: ParsedCommandArgs<N>) => string;
  /** `data.type` of the request document; null when the request has no body. */
  documentType: string | null;
}

export const WRITE_COMMANDS: { readonly [N in WriteCommandName]: WriteCommandSpec<N> } = {
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
  'course.create': {
    type: 'course',
    verb: 'create',
    method: 'POST',
    path: () => '/courses',
    documentType: 'course',
  },
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
  'customfield.create': {
    type: 'customfield',
    verb: 'create',
    method: 'POST',
    path: ({ courseId }) => `/courses/${courseId}/customfields`,
    documentType: 'customfield',
  },
  'customfield.update': {
    type: 'customfield',
    verb: 'update',
    method: 'PATCH',
    path: ({ courseId, id }) => `/courses/${courseId}/customfields/${id}`,
    documentType: 'customfield',
  },
  'customfield.delete': {
    type: 'customfield',
    verb: 'delete',
    method: 'DELETE',
    path: ({ courseId, id }) => `/courses/${courseId}/customfields/${id}`,
    documentType: null,
  },
};

// ---------------------------------------------------------------------------------------------
// Results and errors

/** What every record write answers, at once and without network. */
export interface WriteReceipt {
  type: string;
  /** `local-<uuid>` for a record created offline, else the record's id. */
  id: string;
  /** The outbox entry's id; null when coalescing left nothing to send. */
  operation: number | null;
  state: OutboxState | 'nothing to send';
}

export interface OutboxEntry {
  id: number;
  command: string;
  recordType: string;
  recordId: string;
  state: OutboxState;
  attempts: number;
  /** When a retrying entry is tried next (ISO 8601). */
  nextAttemptAt: string | null;
  /** The last failure: the service's status (null: no answer) and its error text. */
  error: { status: number | null; message: { de: string; en: string } } | null;
  createdAt: string;
  arguments: unknown;
  /** The record created offline this entry waits for (a `local-` id), if any. */
  waitingFor: string | null;
  /** Held back: its record has a conflict not yet resolved (DESIGN rule 2), sent once it is. */
  inConflict: boolean;
  /** What record the operation concerns, in words from the replica; null when unknown. */
  subject: OutboxSubject | null;
}

/**
 * The record an outbox operation concerns, so a screen can say it in words ("Teilnahme von Max
 * Muster abgesagt"). `label` names it: a participant's or a person's first and last name, a
 * course's title, a custom field's or a calendar's name, an occasion's description, a
 * notification's title; for hours entries their occasion's description.
 */
export interface OutboxSubject {
  kind: WriteResourceType;
  label: string | null;
  /** What it belongs to: the course's title (participations, custom fields), the person's name (trainings), the course number (courses). */
  context?: string | null;
  /** Hours entries and occasions: their day (YYYY-MM-DD, as the service means it). */
  day?: string | null;
  /** Hours entries: the hours. */
  hours?: number | null;
}

export interface ConflictEntry {
  id: number;
  recordType: string;
  recordId: string;
  field: string;
  /** changed: both sides changed the field; deleted: the service deleted the record. */
  kind: 'changed' | 'deleted';
  base: unknown;
  mine: unknown;
  theirs: unknown;
  detectedAt: string;
  /** The record in words, as an outbox entry's subject. */
  subject: OutboxSubject | null;
}

/**
 * Results per command. outbox.retry and outbox.edit answer the entry as it is afterwards (so a
 * screen can show its new state); outbox.discard answers only the id, as the entry is gone.
 */
export interface CommandResults extends Record<WriteCommandName, WriteReceipt> {
  'outbox.list': OutboxEntry[];
  'outbox.retry': OutboxEntry;
  'outbox.edit': OutboxEntry;
  'outbox.discard': { id: number; state: 'discarded' };
  'conflicts.list': ConflictEntry[];
  'conflicts.resolve': { id: number; resolved: true; sent: boolean };
  'sync.refresh': RefreshResult;
}

/**
 * An on-demand refresh. refreshed false: the item was confirmed less than a minute ago and was
 * not asked for again. gone: the service no longer has it (it is removed here too).
 */
export interface RefreshResult {
  kind: 'course' | 'person' | 'client';
  id: string;
  refreshed: boolean;
  gone: boolean;
  /** When the service last confirmed the item's collections (the screen's "as of"). */
  confirmedAt: string | null;
  requests: number;
}

export const CORE_ERROR_CODES = [
  'invalid_arguments',
  'unknown_name',
  'not_found',
  'not_allowed',
  /** The service could not be reached (or no connection is set up): try again when online. */
  'offline',
  /** The service answered with an error; its words are in the message. */
  'service_error',
  'internal',
  /** The login did not succeed (the service refused it, or its answer was wrong); words say why. */
  'login_failed',
  /** The person cancelled (closed the login, or it timed out). */
  'cancelled',
  /** The call needs a signed-in account. */
  'not_signed_in',
] as const;
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/** A failed call as a value (never a stack trace): a code and a message in both languages. */
export interface CoreError {
  code: CoreErrorCode;
  message: { de: string; en: string };
  /** For invalid_arguments: each refused member, path dotted (`attributes.vorname`). */
  issues?: { path: string; message: string }[];
}
