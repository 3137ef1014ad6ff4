// The tolerant reader of attribute values (DESIGN rule 14). Every optional value reads as "no
// value" (undefined, the member left out of the parsed object) when it is null, "", absent or a
// MySQL zero date; a value of another JSON type is converted where its meaning is clear (number →
// text, numeric string → number, "1"/"0"/"true"/"false"/1/0 → boolean, a single value → a
// one-item list, a date-time → its date) and otherwise read as no value; both are counted.
//
// Readers are plain functions rather than zod schemas: a large sync reads 100,000 hour entries,
// and one pass over each attributes object costs less than a zod object of per-field pipes.
// Unknown members are kept as they are, only their empty forms (null, "", zero dates) dropped,
// so two answers that mean the same read the same (the replica's `base` is their JSON).

/** Reads one value; `undefined` means no value. May call `converted()`. */
export type Read<T> = (value: unknown) => T | undefined;

/** A member without which the record cannot be filed: no value for it makes the record unreadable. */
export interface Required<T> {
  readonly required: Read<T>;
}

export type Fields = Record<string, Read<unknown> | Required<unknown>>;

type RequiredKeys<S extends Fields> = {
  [K in keyof S]: S[K] extends Required<unknown> ? K : never;
}[keyof S];
type ReadType<F> = F extends Required<infer T> ? T : F extends Read<infer T> ? T : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What reading `S` gives: required members present, the others optional, unknown members kept. */
export type ReadObject<S extends Fields> = Simplify<
  { [K in RequiredKeys<S>]: ReadType<S[K]> } & {
    [K in Exclude<keyof S, RequiredKeys<S>>]?: ReadType<S[K]>;
  } & { [member: string]: unknown }
>;

// ---- counting ----

let conversions = 0;
let depth = 0;

/**
 * Runs `parse` (synchronous, e.g. a zod safeParse) and counts the values the readers converted
 * or read as no value because of their JSON type, during that call only. Calls nest: an outer
 * call's count includes the inner ones. Counted even when the parse ends in a rejection.
 */
export function countConversions<T>(parse: () => T): { value: T; conversions: number } {
  const outer = conversions;
  conversions = 0;
  depth += 1;
  let inner = 0;
  try {
    const value = parse();
    inner = conversions;
    return { value, conversions: inner };
  } finally {
    depth -= 1;
    inner = conversions;
    conversions = depth > 0 ? outer + inner : 0;
  }
}

/** Notes one conversion (or one value of an unreadable type read as no value). */
export function converted(): void {
  if (depth > 0) conversions += 1;
}

// ---- values ----

/** The service's "no value" forms of a date or date-time (MySQL zero dates). */
function isZeroDate(value: string): boolean {
  return value.startsWith('0000-00-00');
}

/** null, undefined, "" and zero dates: the service's forms of "no value" (not conversions). */
export function isNoValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (typeof value === 'string' && isZeroDate(value))
  );
}

/** Text; a finite number becomes its decimal text (counted), any other type is no value (counted). */
export const text: Read<string> = (value) => {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (value === null || value === undefined) return undefined;
  converted();
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
};

/** An id inside an attribute (of a list item): a non-empty string; a number becomes its text (counted). */
export const idText: Read<string> = text;

/** A code that the service writes as a number or a string (list ids, positions): kept as it is. */
export const code: Read<string | number> = (value) => {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value !== null && value !== undefined) converted();
  return undefined;
};

const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A date `YYYY-MM-DD`; a date-time gives its date (counted); anything else malformed is no value (counted). */
export const date: Read<string> = (value) => {
  if (typeof value === 'string') {
    if (value === '' || isZeroDate(value)) return undefined;
    if (DATE.test(value)) return value;
    converted();
    return DATE_TIME.test(value) ? value.slice(0, 10) : undefined;
  }
  if (value !== null && value !== undefined) converted();
  return undefined;
};

/** An ISO 8601 date-time (offset optional, space separator tolerated); malformed is no value (counted). */
export const dateTime: Read<string> = (value) => {
  if (typeof value === 'string') {
    if (value === '' || isZeroDate(value)) return undefined;
    if (DATE_TIME.test(value)) return value;
    converted();
    return undefined;
  }
  if (value !== null && value !== undefined) converted();
  return undefined;
};

const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A finite number; a numeric string becomes its number (counted); anything else is no value (counted). */
export const number: Read<number> = (value) => {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
  } else if (typeof value === 'string') {
    if (value === '') return undefined;
    if (NUMERIC.test(value)) {
      converted();
      const read = Number(value);
      // "1e999" is numeric text, but no finite number: no value (counted once, here).
      return Number.isFinite(read) ? read : undefined;
    }
  } else if (value === null || value === undefined) return undefined;
  converted();
  return undefined;
};

/** An integer; like `number`, and a number with a fraction is no value (counted). */
export const integer: Read<number> = (value) => {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  const read = number(value);
  if (read === undefined || Number.isInteger(read)) return read;
  converted();
  return undefined;
};

/** A boolean; 1/0, "1"/"0" and "true"/"false" are converted (counted); anything else is no value (counted). */
export const flag: Read<boolean> = (value) => {
  if (typeof value === 'boolean') return value;
  if (value === null || value === undefined || value === '') return undefined;
  converted();
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return undefined;
};

/** A value of any type (e.g. a custom field's value): only its empty forms are no value. */
export const raw: Read<unknown> = (value) => (isNoValue(value) ? undefined : value);

export interface ListOptions {
  /** Keep an empty list as `[]` (when "none" and "not sent" differ); otherwise it is no value. */
  keepEmpty?: boolean;
}

/**
 * A list of `item`s. Items that are no value (null, "") are dropped, items the item reader cannot
 * read are dropped and counted; a single value where the list is expected is a one-item list
 * (counted); an empty list is no value unless `keepEmpty`.
 */
export function list<T>(item: Read<T>, options: ListOptions = {}): Read<T[]> {
  const keepEmpty = options.keepEmpty === true;
  return (value) => {
    if (Array.isArray(value)) {
      const out: T[] = [];
      for (const entry of value) {
        const read = item(entry);
        if (read !== undefined) out.push(read);
      }
      return out.length > 0 || keepEmpty ? out : undefined;
    }
    if (isNoValue(value)) return undefined;
    const read = item(value);
    if (read === undefined) return undefined;
    converted();
    return [read];
  };
}

/** A list of texts (`gruppen_namen`, `rechte`, `klassen`). */
export const texts: Read<string[]> = list(text);

/** Marks a member as required (see Required). */
export function required<T>(read: Read<T>): Required<T> {
  return { required: read };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads an object by its fields; what goes wrong is reported through the result, never thrown. */
export type ObjectReader<S extends Fields> = (
  source: Record<string, unknown>,
) => { value: ReadObject<S>; missing?: undefined } | { value?: undefined; missing: string };

/**
 * Reads the members of an object: known ones by their reader, in the order of `fields`, then the
 * unknown ones in their order, their empty forms dropped. `missing` names a required member
 * without a value.
 */
export function objectReader<S extends Fields>(fields: S): ObjectReader<S> {
  const names = Object.keys(fields);
  const readers: Read<unknown>[] = [];
  const isRequired: boolean[] = [];
  const known = new Set(names);
  for (const name of names) {
    const field = fields[name]!;
    isRequired.push(typeof field !== 'function');
    readers.push(typeof field === 'function' ? field : field.required);
  }
  return (source) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const value = readers[i]!(source[name]);
      if (value !== undefined) out[name] = value;
      else if (isRequired[i]) return { missing: name };
    }
    for (const name in source) {
      if (known.has(name)) continue;
      const value = source[name];
      if (isNoValue(value)) continue;
      if (name === '__proto__')
        Object.defineProperty(out, name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[name] = value;
    }
    return { value: out as ReadObject<S> };
  };
}

/**
 * A nested object (`pruefergebnis`, `fahrerlaubnis`, a list item): no value when empty, of
 * another type (counted), lacking a required member (counted) or without any member left.
 */
export function object<S extends Fields>(fields: S): Read<ReadObject<S>> {
  const read = objectReader(fields);
  return (value) => {
    if (!isPlainObject(value)) {
      if (!isNoValue(value)) converted();
      return undefined;
    }
    const result = read(value);
    if (result.missing !== undefined) {
      converted();
      return undefined;
    }
    for (const _ in result.value) return result.value;
    return undefined;
  };
}
