// The kit the contract's commands are built from: issues in two languages, the service's value
// and id formats, `named` (members refused by name, read-only ones with the reason), the shapes of
// relationships, and the type of a write's route. Every area's file (personnel.ts, hours.ts, ...)
// builds its commands with these, so each input rule is written once.
// Imports zod and the types of ./commands (the writable types its areas declare): the renderer
// (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import type { RECORD_TABLES } from './commands';

// ---------------------------------------------------------------------------------------------
// Issues in two languages

/** Adds a custom issue: English `message`, German in `params.de` (the dispatcher shows both). */
export function say(ctx: z.core.$RefinementCtx, path: PropertyKey[], en: string, de: string): void {
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
export function checkedString(test: (value: string) => boolean, en: string, de: string) {
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

export const date = checkedString(
  isDate,
  'expected a date YYYY-MM-DD',
  'erwartet ein Datum JJJJ-MM-TT',
);
/** Personnel dates are `""` when empty, never null (as the service writes them). */
export const dateOrEmpty = checkedString(
  (value) => value === '' || isDate(value),
  'expected a date YYYY-MM-DD or ""',
  'erwartet ein Datum JJJJ-MM-TT oder ""',
);
export const dateTime = checkedString(
  isDateTime,
  'expected a date-time with offset such as 2026-03-01T08:00:00+01:00',
  'erwartet Datum und Uhrzeit mit Zeitzone, z. B. 2026-03-01T08:00:00+01:00',
);
export const text = z.string();
export const nonBlank = checkedString(
  (value) => value.trim() !== '',
  'must not be empty',
  'darf nicht leer sein',
);
export const emailOrEmpty = z.union([z.literal(''), z.email('expected an e-mail address or ""')]);
/** Amounts the service stores as floats (hours, kilometres, prices): never negative. */
export const amount = z.number().min(0);

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

export const ids = {
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
export const rowId = z.number().int().positive();

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
export function named<O extends z.ZodObject, K extends keyof z.output<O> & string = never>(
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
export function requireChange(...members: ('attributes' | 'relationships')[]) {
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
export const toOne = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ data: identifier(type, id) });
export const toOneOrNull = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ data: identifier(type, id).nullable() });
export const toMany = <T extends string>(type: T, id: IdSchema) =>
  z.strictObject({ data: z.array(identifier(type, id)) });

// ---------------------------------------------------------------------------------------------
// Where a write goes: each area declares its writes' routes next to their schemas

/**
 * The service's resource types the writes change: those the areas name in their `recordTables`
 * (merged in ./commands.ts), so a new writable resource is declared in its area only.
 */
export type WriteResourceType = keyof typeof RECORD_TABLES;

/** An area's writable resource types, each with the replica tables a write of its records changes. */
export type RecordTables = Readonly<Record<string, readonly string[]>>;

/**
 * An area's sync collections: the replica tables each fills (sync.status counts their records)
 * and its name in words (the command line's).
 */
export type Collections = Readonly<Record<string, { tables: readonly string[]; words: string }>>;

/** An area's reads: the replica tables each reads (see ./reads.ts). */
export type Reads = Readonly<Record<string, readonly string[]>>;

/** Where one write goes, for its parsed (valid) arguments `Args`. */
export interface WriteSpec<Args> {
  /** The record's resource type (participation.cancel changes a `participation`). */
  type: WriteResourceType;
  verb: 'create' | 'update' | 'upsert' | 'delete' | 'cancel';
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The service path, from parsed (valid) arguments; ids are safe in paths by their schemas. */
  path: (args: Args) => string;
  /** `data.type` of the request document; null when the request has no body. */
  documentType: string | null;
}

/** An area's write routes: one per command of `C`, typed by the command's parsed arguments. */
export type WriteSpecs<C extends Record<string, z.ZodType>> = {
  readonly [N in keyof C]: WriteSpec<z.output<C[N]>>;
};
