// `--shapes real` and `--shapes robust`: answers whose shapes vary, decided per record and field
// by a hash of the seed, the record's type and id and the field's path (so the same seed gives
// the same bytes, one record looks the same in every answer, and different records of one answer
// look different). Every variant keeps the record's meaning: a client that reads tolerantly
// builds the same replica from them as from the `uniform` answers.
// `real` shows only what public sources show of the real service (/work/shared/SERVICE-NOTES.md,
// "Responses"): empty values as `""` (as `uniform` does; `null` only where a member is nullable),
// and an empty date also as `0000-00-00`. A client written against the public documentation
// reads it.
// `robust` tests a client's tolerance beyond that, with shapes no public source shows:
//   empty values     `""`, `null` or an absent member, mixed, also in nested objects and list
//                    items; an empty date (DATE_FIELDS) also as `0000-00-00`
//   user lists       `ausbildungen` left out on some users (still served by
//                    /personal/{id}/ausbildungen); an empty `qualifikationen` left out on some
//   digit fields     a phone or postal code of digits only, without a leading zero, as a number
//   numeric strings  a number as its decimal string in a few fields (NUMERIC_STRING_FIELDS)
//   single values    a one-item list of strings as its item in a few fields (SINGLE_VALUE_FIELDS)
//   extra attributes `x_intern_flag`, `letzte_aenderung_von` on some records
//   type spellings   the primary data of a list of trainings, checks, honours, course types,
//                    UVTs or tax rates (types the seed leaves open) under another spelling,
//                    one per answer; `included` and relationship identifiers keep the type
// The default, `uniform`, does none of this and costs nothing (see document.ts).
import type { ResourceObject } from './document';

export const SHAPES = ['uniform', 'real', 'robust'] as const;
export type Shapes = (typeof SHAPES)[number];
/** The shapes that vary answers. */
export type VariedShapes = Exclude<Shapes, 'uniform'>;

/** `uniform`, `real` or `robust`; throws a RangeError naming the choices. */
export function parseShapes(text: string): Shapes {
  if ((SHAPES as readonly string[]).includes(text)) return text as Shapes;
  throw new RangeError(
    `The shapes are "uniform" (the default), "real" or "robust", not "${text}".`,
  );
}

/** Attributes (at any depth) holding a date `YYYY-MM-DD`, which may also read `0000-00-00` when empty. */
export const DATE_FIELDS: ReadonlySet<string> = new Set([
  'gebdat',
  'mitglied_seit',
  'austritt_datum',
  'fuehrerscheindatum',
  'erwerb_datum',
  'datum',
  'gueltig_bis',
  'letzte_pruefung',
  'naechste_pruefung',
  'gueltig_ab',
  'birthday',
]);

/** Phone and postal-code attributes (at any depth) that read as a number when they are digits only. */
export const DIGIT_FIELDS: ReadonlySet<string> = new Set([
  'telpriv',
  'handy',
  'teldienst',
  'plz',
  'telefon',
  'phone',
  'mobile',
  'postal_code',
]);

/** Numbers that may come as a decimal string, per type. */
export const NUMERIC_STRING_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  helferstunden: new Set(['stunden', 'anfahrt_km', 'freies_zahlenfeld']),
  course: new Set(['max_participants', 'price']),
  course_type: new Set(['units', 'default_price', 'validity_years']),
  steuersatz: new Set(['satz']),
  ehrung: new Set(['jahre']),
};

/** String lists that may come as their only item when they hold exactly one. */
export const SINGLE_VALUE_FIELDS: ReadonlySet<string> = new Set([
  'gruppen_namen',
  'rechte',
  'klassen',
]);

/** Attributes the client does not know, added to some records. */
export const EXTRA_ATTRIBUTES = ['x_intern_flag', 'letzte_aenderung_von'] as const;

/** The other spellings of the types the seed leaves open, used in the data of their lists. */
export const TYPE_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  ausbildung: ['ausbildungen', 'Ausbildung', 'personal_ausbildung'],
  ueberpruefung: ['ueberpruefungen', 'Ueberpruefung', 'personal_ueberpruefung'],
  ehrung: ['ehrungen', 'Ehrung', 'personal_ehrung'],
  course_type: ['course-type', 'coursetype', 'course_types', 'CourseType'],
  uvt: ['uvts', 'UVT', 'Uvt'],
  steuersatz: ['steuersaetze', 'Steuersatz', 'tax_rate'],
};

const EDITORS = ['import', 'admin', 'schnittstelle', ''];

/** Marks a member to leave out. */
const ABSENT = Symbol('absent');

/** FNV-1a over the text, continuing from `state`, then a murmur3 finaliser. */
function hashText(state: number, text: string): number {
  let h = state >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class ShapeVariation {
  private readonly base: number;
  /** Whether the shapes no public source shows are on (`robust`), or only those it shows (`real`). */
  private readonly robust: boolean;

  constructor(seed: number, shapes: VariedShapes) {
    this.base = hashText(0x811c9dc5, `shapes\u0000${seed}`);
    this.robust = shapes === 'robust';
  }

  /** The resource object as the real service might write it; the given one is not changed. */
  resource(object: ResourceObject): ResourceObject {
    const record = hashText(this.base, `${object.type}\u0000${object.id}`);
    return { ...object, attributes: this.attributes(object.type, record, object.attributes) };
  }

  /** The spelling of an open type in the data of one list answer (`answer`: its path and query). */
  listType(type: string, answer: string): string {
    const spellings = this.robust ? TYPE_SPELLINGS[type] : undefined;
    if (!spellings) return type;
    return spellings[hashText(this.base, `${type}\u0000${answer}`) % spellings.length] ?? type;
  }

  private attributes(
    type: string,
    record: number,
    source: Record<string, unknown>,
  ): Record<string, unknown> {
    if (!this.robust) return this.nested(type, source, record);
    const result: Record<string, unknown> = {};
    for (const name in source) {
      const value = source[name];
      const field = hashText(record, name);
      if (type === 'user' && name === 'ausbildungen' && field % 5 < 2) continue;
      if (
        type === 'user' &&
        name === 'qualifikationen' &&
        Array.isArray(value) &&
        value.length === 0 &&
        field % 2 === 0
      )
        continue;
      const shaped = this.value(type, name, value, field);
      if (shaped !== ABSENT) result[name] = shaped;
    }
    const extras = hashText(record, '\u0000extra');
    if (extras % 4 === 0 && !(EXTRA_ATTRIBUTES[0] in result))
      result[EXTRA_ATTRIBUTES[0]] = (extras >>> 8) % 2 === 0;
    if (extras % 5 === 1 && !(EXTRA_ATTRIBUTES[1] in result))
      result[EXTRA_ATTRIBUTES[1]] = EDITORS[(extras >>> 12) % EDITORS.length];
    return result;
  }

  private value(type: string, name: string, value: unknown, hash: number): unknown {
    if (!this.robust) return this.shownValue(type, name, value, hash);
    if (value === '' || value === null) {
      const choice = DATE_FIELDS.has(name) ? hash % 4 : hash % 3;
      return choice === 0 ? '' : choice === 1 ? null : choice === 2 ? ABSENT : '0000-00-00';
    }
    switch (typeof value) {
      case 'string':
        return DIGIT_FIELDS.has(name) && hash % 2 === 0 && /^[1-9]\d{0,14}$/.test(value)
          ? Number(value)
          : value;
      case 'number':
        return NUMERIC_STRING_FIELDS[type]?.has(name) && hash % 3 === 0 && Number.isFinite(value)
          ? String(value)
          : value;
      case 'object':
        break;
      default:
        return value;
    }
    if (Array.isArray(value)) {
      if (
        SINGLE_VALUE_FIELDS.has(name) &&
        value.length === 1 &&
        typeof value[0] === 'string' &&
        hash % 3 === 0
      )
        return value[0];
      if (!value.some((item) => typeof item === 'object' && item !== null)) return value;
      return value.map((item: unknown, index) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
        return this.nested(
          type,
          item as Record<string, unknown>,
          hashText(hash, itemKey(item, index)),
        );
      });
    }
    return this.nested(type, value as Record<string, unknown>, hash);
  }

  private nested(
    type: string,
    source: Record<string, unknown>,
    hash: number,
  ): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const name in source) {
      const shaped = this.value(type, name, source[name], hashText(hash, name));
      if (shaped !== ABSENT) result[name] = shaped;
    }
    return result;
  }

  /** `real`: an empty date also as `0000-00-00`, at any depth; everything else as it is. */
  private shownValue(type: string, name: string, value: unknown, hash: number): unknown {
    if (value === '' && DATE_FIELDS.has(name)) return hash % 2 === 0 ? '' : '0000-00-00';
    if (typeof value !== 'object' || value === null) return value;
    if (!Array.isArray(value)) return this.nested(type, value as Record<string, unknown>, hash);
    return value.map((item: unknown, index) =>
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? this.nested(type, item as Record<string, unknown>, hashText(hash, itemKey(item, index)))
        : item,
    );
  }
}

/** A list item's part of a field's hash: its id, or its place. */
function itemKey(item: object, index: number): string {
  const itemId = (item as { id?: unknown }).id;
  return typeof itemId === 'string' ? itemId : String(index);
}
