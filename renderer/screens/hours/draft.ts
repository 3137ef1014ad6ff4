// An hours entry as the form holds it (day, times and hours as typed) and as the service takes
// it: `von`/`bis` in Europe/Berlin with their offset, hours from the times unless typed, an end
// before the start meaning the next day (a night shift), and for a change only what changed. The
// office's form (`office`) names the person the entry is for and may approve it.
import type { CommandArgs, HoursItem } from '../../contract';
import type { FieldErrors } from '../../data';
import { serviceDay, serviceTime, toServiceDateTime } from '../../format';

export interface HoursDraft {
  day: string;
  start: string;
  end: string;
  /** As typed ("4", "1,5"). */
  stunden: string;
  /** The occasion chosen (an id, local-… too); null: none yet, or a new one. */
  anlassId: string | null;
  /** The words in the occasion's box. */
  anlassText: string;
  newAnlass: boolean;
  anlassTyp: string;
  anlassBeschreibung: string;
  anlassDatum: string;
  typId: string;
  km: string;
  bemerkung: string;
  /** The office's form: whose entry it is (null: none chosen yet) and the words in its box. */
  userId: string | null;
  userText: string;
  /** The office's form: approved (freigegeben). */
  freigegeben: boolean;
}

export function emptyDraft(today = serviceDay()): HoursDraft {
  return {
    day: today,
    start: '',
    end: '',
    stunden: '',
    anlassId: null,
    anlassText: '',
    newAnlass: false,
    anlassTyp: 'dienst',
    anlassBeschreibung: '',
    anlassDatum: today,
    typId: '',
    km: '',
    bemerkung: '',
    userId: null,
    userText: '',
    freigegeben: false,
  };
}

/** A number as the form shows it: "2,5" in German (no grouping: it is typed back as it is). */
export function amountText(value: number, language: string): string {
  const text = String(value);
  return language === 'en' ? text : text.replace('.', ',');
}

/** The form of an entry there is (its times in Europe/Berlin). */
export function draftOf(item: HoursItem, language = 'de'): HoursDraft {
  const von = item.von ?? '';
  return {
    ...emptyDraft(von ? serviceDay(von) : undefined),
    start: von ? serviceTime(von) : '',
    end: item.bis ? serviceTime(item.bis) : '',
    stunden: item.stunden === null ? '' : amountText(item.stunden, language),
    anlassId: item.anlassId ?? null,
    anlassText: item.anlass ?? '',
    typId: item.typId ?? '',
    km:
      item.anfahrtKm === null || item.anfahrtKm === undefined
        ? ''
        : amountText(item.anfahrtKm, language),
    bemerkung: item.bemerkung ?? '',
    userId: item.userId,
    userText: item.userName ?? '',
    freigegeben: item.freigegeben === true,
  };
}

/** "1,5" and "1.5" both mean one and a half; null when it is no number. */
export function parseAmount(text: string): number | null {
  const normal = text.trim().replace(',', '.');
  if (normal === '' || !/^\d*(\.\d+)?$/.test(normal) || normal === '.') return null;
  const value = Number(normal);
  return Number.isFinite(value) ? value : null;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day after `day` (YYYY-MM-DD). */
function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** von and bis as the service writes them; an end at or before the start is on the next day. */
export function times(draft: Pick<HoursDraft, 'day' | 'start' | 'end'>): {
  von: string | null;
  bis: string | null;
} {
  if (!DAY.test(draft.day) || !TIME.test(draft.start)) return { von: null, bis: null };
  const von = toServiceDateTime(draft.day, draft.start);
  if (!TIME.test(draft.end)) return { von, bis: null };
  const endDay = draft.end <= draft.start ? nextDay(draft.day) : draft.day;
  return { von, bis: toServiceDateTime(endDay, draft.end) };
}

/** The hours between start and end (two decimals), or null when either is missing. */
export function hoursBetween(draft: Pick<HoursDraft, 'day' | 'start' | 'end'>): number | null {
  const { von, bis } = times(draft);
  if (!von || !bis) return null;
  const hours = (Date.parse(bis) - Date.parse(von)) / 3_600_000;
  return Math.round(hours * 100) / 100;
}

/** Field problems the contract cannot see (a time that is not typed is no date-time at all). */
export type LocalProblem = 'day' | 'start' | 'end' | 'stunden' | 'km' | 'anlass' | 'typ' | 'user';

/** `office`: the form names the person, who must be chosen. */
export function localProblems(draft: HoursDraft, office = false): LocalProblem[] {
  const problems: LocalProblem[] = [];
  if (office && !draft.userId) problems.push('user');
  if (!DAY.test(draft.day)) problems.push('day');
  if (!TIME.test(draft.start)) problems.push('start');
  if (draft.end !== '' && !TIME.test(draft.end)) problems.push('end');
  if (parseAmount(draft.stunden) === null) problems.push('stunden');
  if (draft.km.trim() !== '' && parseAmount(draft.km) === null) problems.push('km');
  if (!draft.newAnlass && !draft.anlassId) problems.push('anlass');
  if (!draft.typId) problems.push('typ');
  return problems;
}

type Attributes = NonNullable<CommandArgs<'helferstunden.update'>['attributes']>;

function attributesOf(draft: HoursDraft): Attributes {
  const { von, bis } = times(draft);
  const km = draft.km.trim() === '' ? null : parseAmount(draft.km);
  return {
    ...(von ? { von } : {}),
    bis,
    stunden: parseAmount(draft.stunden) ?? Number.NaN,
    anfahrt_km: km,
    bemerkung: draft.bemerkung,
  };
}

const anlassOf = (id: string) => ({ data: { type: 'helferstunden_anlass' as const, id } });
const typOf = (id: string) => ({ data: { type: 'helferstunden_typ' as const, id } });
const userOf = (id: string) => ({ data: { type: 'user' as const, id } });

/**
 * helferstunden.create's arguments; `anlassId` is the occasion to use (a new one's receipt id).
 * `office`: for the person chosen (else the service makes it the signed-in user's), approved if
 * ticked.
 */
export function createArgs(
  draft: HoursDraft,
  anlassId: string,
  office = false,
): CommandArgs<'helferstunden.create'> {
  const attributes = attributesOf(draft);
  // A new entry without remark or kilometres says nothing about them.
  if (attributes.anfahrt_km === null) delete attributes.anfahrt_km;
  if (attributes.bemerkung === '') delete attributes.bemerkung;
  if (attributes.bis === null) delete attributes.bis;
  return {
    attributes: {
      ...attributes,
      von: attributes.von ?? '',
      stunden: attributes.stunden ?? 0,
      ...(office && draft.freigegeben ? { freigegeben: true } : {}),
    },
    relationships: {
      anlass: anlassOf(anlassId),
      typ: typOf(draft.typId),
      ...(office && draft.userId ? { user: userOf(draft.userId) } : {}),
    },
  };
}

/** helferstunden.update's arguments with only what changed; null when nothing did. */
export function updateArgs(
  id: string,
  before: HoursDraft,
  draft: HoursDraft,
  anlassId: string,
  office = false,
): CommandArgs<'helferstunden.update'> | null {
  const was = attributesOf(before);
  const now = attributesOf(draft);
  const attributes: Attributes = {};
  for (const key of Object.keys(now) as (keyof Attributes)[]) {
    const changed = !Object.is(was[key], now[key]) && was[key] !== now[key];
    if (changed) (attributes as Record<string, unknown>)[key] = now[key];
  }
  if (office && draft.freigegeben !== before.freigegeben)
    attributes.freigegeben = draft.freigegeben;
  const relationships: NonNullable<CommandArgs<'helferstunden.update'>['relationships']> = {};
  if (office && draft.userId && draft.userId !== before.userId)
    relationships.user = userOf(draft.userId);
  if (anlassId !== before.anlassId) relationships.anlass = anlassOf(anlassId);
  if (draft.typId !== before.typId) relationships.typ = typOf(draft.typId);
  const hasAttributes = Object.keys(attributes).length > 0;
  const hasRelationships = Object.keys(relationships).length > 0;
  if (!hasAttributes && !hasRelationships) return null;
  return {
    id,
    ...(hasAttributes ? { attributes } : {}),
    ...(hasRelationships ? { relationships } : {}),
  };
}

/** helferstunden_anlass.create's arguments for a new occasion of the form. */
export function anlassArgs(draft: HoursDraft): CommandArgs<'helferstunden_anlass.create'> {
  return {
    attributes: {
      typ: draft.anlassTyp as 'dienst',
      beschreibung: draft.anlassBeschreibung,
      ...(draft.anlassDatum ? { datum: draft.anlassDatum } : {}),
    },
  };
}

/** The form's fields and the contract's paths that land on them. */
export const FIELD_OF_PATH: Record<string, keyof HoursDraft> = {
  'attributes.von': 'start',
  'attributes.bis': 'end',
  'attributes.stunden': 'stunden',
  'attributes.anfahrt_km': 'km',
  'attributes.bemerkung': 'bemerkung',
  'relationships.anlass': 'anlassText',
  'relationships.typ': 'typId',
  'relationships.user': 'userText',
};
export const FIELD_OF_ANLASS_PATH: Record<string, keyof HoursDraft> = {
  'attributes.typ': 'anlassTyp',
  'attributes.beschreibung': 'anlassBeschreibung',
  'attributes.datum': 'anlassDatum',
};
export const FIELD_OF_PROBLEM: Record<LocalProblem, keyof HoursDraft> = {
  day: 'day',
  start: 'start',
  end: 'end',
  stunden: 'stunden',
  km: 'km',
  anlass: 'anlassText',
  typ: 'typId',
  user: 'userText',
};

/** Words beside the form's fields. */
export type DraftErrors = Partial<Record<keyof HoursDraft, string>>;

/** The contract's field errors on the form's fields (by `map`), and those that land on none. */
export function placeErrors(
  fields: FieldErrors,
  map: Record<string, keyof HoursDraft>,
): {
  errors: DraftErrors;
  rest: string[];
} {
  const errors: DraftErrors = {};
  const rest: string[] = [];
  for (const [path, words] of Object.entries(fields)) {
    const key = Object.entries(map).find(
      ([prefix]) => path === prefix || path.startsWith(`${prefix}.`),
    )?.[1];
    if (key) errors[key] ??= words;
    else rest.push(words);
  }
  return { errors, rest };
}
