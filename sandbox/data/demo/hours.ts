// Volunteer hours: services (dienst) and appointments (termin), the occasions (anlass) they and
// courses give rise to, the hour entries of the people who were there, and the hour settings.
import type {
  AnlassTyp,
  EventAttributes,
  HelferstundenAnlassAttributes,
  HelferstundenAttributes,
  HelferstundenEinstellungenAttributes,
} from '../model';
import type { ResourceRef } from '../store';
import { DAY_MS, HOUR_MS, berlinWallClockToUtc, formatBerlinDate } from '../time';
import {
  APPOINTMENT_TEMPLATES,
  HOUR_REMARKS,
  HOUR_TYPES,
  OTHER_OCCASIONS,
  SERVICE_TEMPLATES,
  type EventTemplate,
  type HourTypeId,
} from './catalog';
import type { GenerationContext } from './context';
import type { CourseInfo, TimeSpan } from './courses';
import type { Person, Personnel } from './personnel';

/**
 * Services and appointments lie from 18 months before the anchor to three weeks after it (the
 * calendar plans ahead). Hours are entered after the work: only shifts that ended before the
 * anchor have entries, and only those occasions exist.
 */
const FIRST_HOUR_DAY = -548;
const LAST_HOUR_DAY = 21;
const MINUTE_MS = 60_000;

interface Occasion {
  typ: AnlassTyp;
  beschreibung: string;
  start: number;
  end: number;
  hourType: HourTypeId;
  ort: string;
  /** Who gets an entry for which span (course trainers get one per course day). */
  shifts: { person: Person; span: TimeSpan }[];
}

/** An hour entry to store; its references are shared between entries (the store freezes them). */
interface EntryPlan {
  anlass: ResourceRef;
  typ: ResourceRef;
  user: ResourceRef;
  occasionTyp: AnlassTyp;
  span: TimeSpan;
  createdAt: number;
}

/** A stored service or appointment, for forms that refer to them. */
export interface EventRef {
  type: 'dienst' | 'termin';
  id: string;
  titel: string;
}

export function generateHours(
  ctx: GenerationContext,
  personnel: Personnel,
  courses: CourseInfo[],
): EventRef[] {
  const forCourses = courseOccasions(ctx, personnel, courses);
  const courseEntries = forCourses.reduce((sum, o) => sum + o.shifts.length, 0);
  const occasions = forCourses.concat(
    eventOccasions(ctx, personnel, Math.max(0, ctx.counts.hours - courseEntries)),
  );
  // Ids in date order, as the service numbers them when they are planned or entered.
  occasions.sort((a, b) => a.start - b.start);

  // One reference object per target instead of one per entry: 300,000 fewer objects at scale large.
  const userRefs = new Map(
    personnel.all.map((p): [string, ResourceRef] => [p.id, { type: 'user', id: p.id }]),
  );
  const typeRefs = new Map(
    HOUR_TYPES.map((t): [string, ResourceRef] => [t.id, { type: 'helferstunden_typ', id: t.id }]),
  );
  const events: EventRef[] = [];
  const entries: EntryPlan[] = [];
  for (const occasion of occasions) {
    const planned = storeEvent(ctx, occasion, events);
    if (!isOver(ctx, occasion.end)) continue;
    const anlass: ResourceRef = {
      type: 'helferstunden_anlass',
      id: storeOccasion(ctx, occasion, planned),
    };
    for (const shift of occasion.shifts) {
      entries.push({
        anlass,
        typ: typeRefs.get(occasion.hourType)!,
        user: userRefs.get(shift.person.id)!,
        occasionTyp: occasion.typ,
        span: shift.span,
        createdAt: enteredAt(ctx, shift.span),
      });
    }
  }
  entries.sort((a, b) => a.createdAt - b.createdAt);
  for (const entry of entries) storeEntry(ctx, entry);
  storeSettings(ctx, personnel);
  return events;
}

/** Trainers enter a course's hours within a week of its end. */
const ENTERED_AFTER_DAYS = 7;

/**
 * Trainers of completed courses enter their teaching hours, one entry per course day; the
 * occasion is there from the course's end, the entries of the last week's courses are not yet.
 */
function courseOccasions(
  ctx: GenerationContext,
  personnel: Personnel,
  courses: CourseInfo[],
): Occasion[] {
  const byId = new Map(personnel.all.map((p) => [p.id, p]));
  return courses
    .filter(
      (course) => course.status === 'completed' && course.dates[0]!.from >= ctx.day(FIRST_HOUR_DAY),
    )
    .map((course) => ({
      typ: 'kurs',
      beschreibung: `${course.title} (${course.courseNumber})`,
      start: course.dates[0]!.from,
      end: course.dates.at(-1)!.to,
      hourType: '2',
      ort: '',
      shifts:
        course.dates.at(-1)!.to > ctx.anchorInstant - ENTERED_AFTER_DAYS * DAY_MS
          ? []
          : course.trainerIds.flatMap((id) =>
              course.dates.map((span) => ({ person: byId.get(id)!, span })),
            ),
    }));
}

/** Services, appointments and other occasions until the scale's number of entries is reached. */
function eventOccasions(
  ctx: GenerationContext,
  personnel: Personnel,
  wantedEntries: number,
): Occasion[] {
  const { random } = ctx;
  // A fixed activity ranking: people early in it do most of the hours, as in real units.
  const ranking = random.sample(personnel.helpers, personnel.helpers.length);
  const expectedOccasions = Math.max(1, wantedEntries / 5);
  // Each demo account gets a few dozen entries at every scale (capped for the tiny one).
  const accountShare = Math.min(0.25, 35 / expectedOccasions);
  const occasions: Occasion[] = [];
  let remaining = wantedEntries;

  while (remaining > 0) {
    const kind = random.weighted<AnlassTyp>([
      ['dienst', 45],
      ['termin', 40],
      ['sonstiges', 15],
    ]);
    const template: EventTemplate =
      kind === 'sonstiges'
        ? otherTemplate(ctx)
        : random.weighted(
            (kind === 'dienst' ? SERVICE_TEMPLATES : APPOINTMENT_TEMPLATES).map(
              (t) => [t, t.weight] as const,
            ),
          );
    const dayStart = eventDay(ctx, template);
    const start = berlinWallClockToUtc(
      dayStart,
      Math.floor(template.startHour),
      (template.startHour % 1) * 60,
    );
    const span = { from: start, to: start + template.hours * HOUR_MS };
    const hourType =
      template.legacyHourType && start < ctx.day(-365)
        ? template.legacyHourType
        : template.hourType;

    // Who is on duty is drawn for a future service too (the one seed gives the same past), but
    // their hours are not entered yet.
    const people = new Set<Person>();
    for (const account of personnel.accounts) if (random.chance(accountShare)) people.add(account);
    const wanted = Math.min(remaining, Math.max(people.size, random.int(...template.helpers)));
    for (let attempt = 0; people.size < wanted && attempt < wanted * 4; attempt++) {
      people.add(ranking[Math.floor(random.next() ** 2 * ranking.length)]!);
    }
    const worked = isOver(ctx, span.to);
    const shifts = worked
      ? [...people].slice(0, remaining).map((person) => ({ person, span }))
      : [];
    remaining -= shifts.length;
    occasions.push({
      typ: kind,
      beschreibung: template.titel,
      start: span.from,
      end: span.to,
      hourType,
      ort: template.ort,
      shifts,
    });
  }
  return occasions;
}

/** A day in the hours' range; seasonal events fall in their months (the range spans them all). */
function eventDay(ctx: GenerationContext, template: EventTemplate): number {
  for (;;) {
    const day = ctx.day(ctx.random.int(FIRST_HOUR_DAY, LAST_HOUR_DAY));
    if (!template.months || template.months.includes(new Date(day).getUTCMonth() + 1)) return day;
  }
}

function otherTemplate(ctx: GenerationContext): EventTemplate {
  const [beschreibung, hourType] = ctx.random.pick(OTHER_OCCASIONS);
  return {
    titel: beschreibung,
    ort: '',
    startHour: ctx.random.int(9, 18),
    hours: ctx.random.int(2, 8) / 2,
    helpers: [1, 2],
    hourType,
    weight: 1,
  };
}

/** When an occasion was planned, and its service or appointment (none for courses and others). */
interface Planned {
  at: number;
  event: ResourceRef | null;
}

/** A service or appointment is planned before it takes place, whether or not it has yet. */
function storeEvent(ctx: GenerationContext, occasion: Occasion, events: EventRef[]): Planned {
  const at = ctx.past(occasion.start - ctx.random.int(1, 30) * DAY_MS);
  if (occasion.typ !== 'dienst' && occasion.typ !== 'termin') return { at, event: null };
  const id = ctx.newId(occasion.typ);
  const attributes: EventAttributes = {
    titel: occasion.beschreibung,
    beginn: ctx.dateTime(occasion.start),
    ende: ctx.dateTime(occasion.end),
    ort: occasion.ort,
  };
  ctx.put(occasion.typ, id, attributes, {}, at);
  events.push({ type: occasion.typ, id, titel: occasion.beschreibung });
  return { at, event: { type: occasion.typ, id } };
}

/** The occasion hours are entered for, referring to its service or appointment. */
function storeOccasion(
  ctx: GenerationContext,
  occasion: Occasion,
  { at: plannedAt, event: referenz }: Planned,
): string {
  const anlassId = ctx.newId('helferstunden_anlass');
  const attributes: HelferstundenAnlassAttributes = {
    typ: occasion.typ,
    beschreibung: occasion.beschreibung,
    datum: formatBerlinDate(occasion.start),
    updated_at: ctx.dateTime(plannedAt),
  };
  ctx.put('helferstunden_anlass', anlassId, attributes, { referenz }, plannedAt);
  return anlassId;
}

/**
 * Whether a shift ending at `end` is over before the anchor and its hours can be entered, also by
 * whoever stays an hour longer (see enteredAt).
 */
function isOver(ctx: GenerationContext, end: number): boolean {
  return end + 2 * HOUR_MS <= ctx.anchorInstant;
}

/** Hours are entered within days after the shift, once whoever stayed an hour longer has left. */
function enteredAt(ctx: GenerationContext, span: TimeSpan): number {
  return ctx.past(span.to + ctx.random.int(90, 5 * 24 * 60) * MINUTE_MS);
}

function storeEntry(ctx: GenerationContext, entry: EntryPlan): void {
  const { random } = ctx;
  let von = entry.span.from;
  let bis = entry.span.to;
  // Arriving late or leaving early shortens only shifts long enough to stay worth an entry.
  const shortenable = bis - von >= 2 * HOUR_MS;
  if (shortenable && random.chance(0.15)) von += random.pick([15, 30]) * MINUTE_MS;
  const leaving = random.next();
  if (shortenable && leaving < 0.1) bis -= 30 * MINUTE_MS;
  else if (leaving < 0.2) bis += random.pick([30, 60]) * MINUTE_MS;
  const openEnded = random.chance(0.02);
  const recent = von > ctx.anchorInstant - 14 * DAY_MS;
  const freigegeben = random.chance(recent ? 0.4 : 0.93);
  const updatedAt = freigegeben
    ? ctx.past(entry.createdAt + random.int(1, 10 * 24) * HOUR_MS)
    : entry.createdAt;
  const attributes: HelferstundenAttributes = {
    freigegeben,
    von: ctx.dateTime(von),
    bis: openEnded ? null : ctx.dateTime(bis),
    // Quarter hours, as the entry form offers; without an end the planned length stands.
    stunden: Math.round(((bis - von) / HOUR_MS) * 4) / 4,
    anfahrt_km: random.chance(0.45) ? random.float(1.5, 40, 1) : null,
    freies_zahlenfeld:
      entry.occasionTyp === 'dienst' && random.chance(0.3) ? random.int(0, 6) : null,
    bemerkung: random.chance(0.1) ? random.pick(HOUR_REMARKS) : '',
    created_at: ctx.dateTime(entry.createdAt),
    updated_at: ctx.dateTime(updatedAt),
  };
  const { anlass, typ, user } = entry;
  ctx.put(
    'helferstunden',
    ctx.newId('helferstunden'),
    attributes,
    { anlass, typ, user },
    updatedAt,
  );
}

function storeSettings(ctx: GenerationContext, personnel: Personnel): void {
  const activeTypes = HOUR_TYPES.filter((t) => t.aktiv).map((t): ResourceRef => ({
    type: 'helferstunden_typ',
    id: t.id,
  }));
  for (const person of personnel.accounts) {
    const isOffice = person === personnel.office;
    const isTrainer = personnel.trainers.includes(person);
    const attributes: HelferstundenEinstellungenAttributes = {
      eigene_stunden_erfassen: true,
      freigabe_erforderlich: !isOffice,
      standard_typ_id: isTrainer ? '2' : isOffice ? '3' : '1',
      anfahrt_erfassen: true,
      zahlenfeld_bezeichnung: 'Patientenkontakte',
    };
    ctx.put(
      'helferstunden_einstellungen',
      person.id,
      attributes,
      { typen: activeTypes },
      ctx.recent(300),
    );
  }
}
