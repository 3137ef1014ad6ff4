// The courses module: courses with their dates, venues (address), trainers, custom fields,
// participations and cancellations.
import type {
  AddressAttributes,
  CancellationAttributes,
  CourseAttributes,
  CourseDateAttributes,
  CourseStatus,
  CustomfieldAttributes,
  ParticipationAttributes,
  ParticipationStatus,
} from '../model';
import type { Relationship, ResourceRef } from '../store';
import { DAY_MS, HOUR_MS, berlinWallClockToUtc, formatDate } from '../time';
import type { Business, ClientInfo } from './business';
import {
  CANCELLATION_REASONS,
  COURSE_CANCELLED_REASON,
  COURSE_COMMENTS,
  COURSE_TYPES,
  CUSTOM_FIELDS,
  PARTICIPATION_COMMENTS,
  TOWN_CENTRE,
  VENUES,
  type CourseTypeTemplate,
} from './catalog';
import { emailAddress, landlineNumber, mobileNumber, type GenerationContext } from './context';
import type { Person, Personnel } from './personnel';

export interface TimeSpan {
  from: number;
  to: number;
}

/** What the hours and inbox generators need to know of a course. */
export interface CourseInfo {
  id: string;
  title: string;
  courseNumber: string;
  dates: TimeSpan[];
  trainerIds: string[];
  status: CourseStatus;
}

interface CoursePlan {
  id: string;
  type: CourseTypeTemplate;
  client: ClientInfo | null;
  dates: TimeSpan[];
  cancelled: boolean;
  trainers: Person[];
  /** trainer1 leads it: the demo's day of a trainer (a course today, one a few days ago). */
  trainerOne?: boolean;
}

/** Courses lie from half a year before the anchor to a year after it. */
const FIRST_COURSE_DAY = -182;
const LAST_COURSE_DAY = 365;
const CAPACITIES = [10, 12, 15, 16, 18, 20, 24, 25, 30, 35, 40, 45, 50, 60];

export function generateCourses(
  ctx: GenerationContext,
  personnel: Personnel,
  business: Business,
): CourseInfo[] {
  const plans = planCourses(ctx, business);
  assignTrainers(ctx, plans, personnel);
  const participationCounts = allocateParticipations(ctx, plans);
  const numbers = new CourseNumbers();
  return plans.map((plan, index) =>
    storeCourse(ctx, plan, participationCounts[index]!, numbers, personnel, business),
  );
}

function planCourses(ctx: GenerationContext, business: Business): CoursePlan[] {
  const { random } = ctx;
  const companyClients = business.clients.filter((c) => c.kind === 'company');
  const schoolClients = business.clients.filter((c) => c.kind === 'school');
  const plans: Omit<CoursePlan, 'id'>[] = [];
  for (let n = 0; n < ctx.counts.courses; n++) {
    const type = random.weighted(COURSE_TYPES.map((t) => [t, t.weight] as const));
    const clientPool = type.internal
      ? []
      : type.short_name === 'EH-BE'
        ? schoolClients
        : companyClients;
    const client = clientPool.length > 0 && random.chance(0.4) ? random.pick(clientPool) : null;
    const firstDay = courseDay(ctx, type, client, random.int(FIRST_COURSE_DAY, LAST_COURSE_DAY));
    const dates: TimeSpan[] = [];
    for (let d = 0; d < type.days; d++) {
      const from = berlinWallClockToUtc(firstDay + d * DAY_MS, type.startHour, type.startMinute);
      dates.push({ from, to: from + type.hours * HOUR_MS });
    }
    plans.push({ type, client, dates, cancelled: random.chance(0.04), trainers: [] });
  }
  showTrainerOnesDay(ctx, plans);
  // Ids in date order, as a service that numbers courses when they are planned.
  plans.sort((a, b) => a.dates[0]!.from - b.dates[0]!.from);
  return plans.map((plan) => ({ ...plan, id: ctx.newId('course') }));
}

/**
 * The demo as a trainer opens on today: trainer1 teaches a one-day course today and taught one
 * three days ago (its hours not yet entered: the hours screen suggests them). Two plans of
 * one-day types are moved there; no draw of the random sources changes.
 */
function showTrainerOnesDay(ctx: GenerationContext, plans: Omit<CoursePlan, 'id'>[]): void {
  const oneDay = plans.filter((plan) => plan.type.days === 1 && !plan.type.internal);
  for (const [plan, offset] of [
    [oneDay[0], 0],
    [oneDay[1], -3],
  ] as const) {
    if (!plan) continue;
    const from = berlinWallClockToUtc(ctx.day(offset), plan.type.startHour, plan.type.startMinute);
    plan.dates = [{ from, to: from + plan.type.hours * HOUR_MS }];
    plan.cancelled = false;
    plan.trainerOne = true;
  }
}

/** Open first-aid courses fall mostly on Saturdays, in-house and evening courses on weekdays. */
function courseDay(
  ctx: GenerationContext,
  type: CourseTypeTemplate,
  client: ClientInfo | null,
  offset: number,
): number {
  const day = ctx.day(offset);
  const weekday = new Date(day).getUTCDay();
  const onSaturday = type.days === 2 || (!client && type.startHour < 12 && ctx.random.chance(0.6));
  if (onSaturday) return day + ((6 - weekday + 7) % 7) * DAY_MS;
  if (weekday === 0) return day + DAY_MS;
  if (weekday === 6) return day + 2 * DAY_MS;
  return day;
}

function assignTrainers(ctx: GenerationContext, plans: CoursePlan[], personnel: Personnel): void {
  const { random } = ctx;
  const [first, second, third] = personnel.trainers;
  const everyone = [...personnel.trainers, ...personnel.instructors];
  for (const plan of plans) {
    const lead =
      random.weighted<Person | null>([
        [first!, 25],
        [second!, 22],
        [third!, 22],
        [null, 31],
      ]) ?? random.pick(personnel.instructors);
    plan.trainers = [plan.trainerOne ? first! : lead];
    if (plan.type.days === 2 || random.chance(0.35)) {
      plan.trainers.push(random.pick(everyone.filter((p) => p !== plan.trainers[0])));
    }
  }
  // The demo opens on trainer1's default window (today to +12 months): make sure it is not empty.
  const inWindow = plans.filter(
    (p) =>
      !p.cancelled &&
      p.dates[0]!.from >= ctx.anchorInstant &&
      p.dates[0]!.from < ctx.day(LAST_COURSE_DAY),
  );
  let trainerOneCourses = inWindow.filter((p) => p.trainers.includes(first!)).length;
  for (const plan of inWindow) {
    if (trainerOneCourses >= 3) break;
    if (plan.trainers.includes(first!)) continue;
    plan.trainers[0] = first!;
    trainerOneCourses += 1;
  }
}

/** Distributes the scale's participations over the courses: past courses full, far ones sparse. */
function allocateParticipations(ctx: GenerationContext, plans: CoursePlan[]): number[] {
  const weights = plans.map((plan) => {
    const daysAhead = (plan.dates[0]!.from - ctx.anchorInstant) / DAY_MS;
    const demand = daysAhead < 0 ? 1 : daysAhead < 60 ? 0.9 : daysAhead < 180 ? 0.5 : 0.25;
    const size = plan.type.internal ? 0.6 : 1;
    return demand * size * (plan.cancelled ? 0.3 : 1) * (0.6 + ctx.random.next() * 0.8);
  });
  const total = weights.reduce((sum, w) => sum + w, 0);
  const exact = weights.map((w) => (w / total) * ctx.counts.participations);
  const counts = exact.map(Math.floor);
  let missing = ctx.counts.participations - counts.reduce((sum, c) => sum + c, 0);
  const byRemainder = exact
    .map((value, index) => [value - Math.floor(value), index] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, index] of byRemainder) {
    if (missing-- <= 0) break;
    counts[index]! += 1;
  }
  return counts;
}

/** Course numbers per type and year (EH-2026-17), UVT registration numbers per year (12/2026). */
class CourseNumbers {
  private readonly perTypeYear = new Map<string, number>();
  private readonly uvtPerYear = new Map<number, number>();

  courseNumber(shortName: string, year: number): string {
    const key = `${shortName}-${year}`;
    const next = (this.perTypeYear.get(key) ?? 0) + 1;
    this.perTypeYear.set(key, next);
    return `${key}-${next}`;
  }

  uvtRegistration(year: number): string {
    const next = (this.uvtPerYear.get(year) ?? 0) + 1;
    this.uvtPerYear.set(year, next);
    return `${next}/${year}`;
  }
}

function storeCourse(
  ctx: GenerationContext,
  plan: CoursePlan,
  participationCount: number,
  numbers: CourseNumbers,
  personnel: Personnel,
  business: Business,
): CourseInfo {
  const { random } = ctx;
  const { type, client } = plan;
  const start = plan.dates[0]!.from;
  const end = plan.dates.at(-1)!.to;
  const year = new Date(start).getUTCFullYear();
  const courseNumber = numbers.courseNumber(type.short_name, year);
  const status: CourseStatus = plan.cancelled
    ? 'cancelled'
    : end < ctx.anchorInstant
      ? 'completed'
      : start - ctx.anchorInstant > 180 * DAY_MS && random.chance(0.4)
        ? 'draft'
        : 'ready';
  const createdAt = ctx.past(
    Math.min(start - random.int(20, 160) * DAY_MS, ctx.anchorInstant - random.int(1, 60) * DAY_MS),
  );

  const dateRefs: ResourceRef[] = plan.dates.map((span) => {
    const id = ctx.newId('course_date');
    const attributes: CourseDateAttributes = {
      from: ctx.dateTime(span.from),
      to: ctx.dateTime(span.to),
    };
    ctx.put('course_date', id, attributes, { course: { type: 'course', id: plan.id } }, createdAt);
    return { type: 'course_date', id };
  });
  const location = client || random.chance(0.85) ? storeLocation(ctx, client, createdAt) : null;
  storeCustomFields(ctx, plan.id, createdAt);
  const course: CourseInfo = {
    id: plan.id,
    title: client ? `${type.name} – ${client.name}` : type.name,
    courseNumber,
    dates: plan.dates,
    trainerIds: plan.trainers.map((t) => t.id),
    status,
  };
  const participations = storeParticipations(
    ctx,
    course,
    plan,
    participationCount,
    createdAt,
    personnel,
    business,
  );
  // The participant count is an attribute: the course changed with its latest participation.
  const updatedAt = Math.max(createdAt, participations.lastChange);
  const attributes: CourseAttributes = {
    title: course.title,
    course_number: courseNumber,
    uvt_registration_number: type.uvtRecognised ? numbers.uvtRegistration(year) : '',
    status,
    comment: random.chance(0.25) ? random.pick(COURSE_COMMENTS) : '',
    number_of_participants: participations.attending,
    max_participants: Math.max(
      type.usualMax,
      CAPACITIES.find((c) => c >= participations.attending) ?? participations.attending,
    ),
    organizer_on_site: location?.contactName ?? '',
    price: client ? type.default_price - 5 : type.default_price,
    created_at: ctx.dateTime(createdAt),
    updated_at: ctx.dateTime(updatedAt),
  };
  const relationships: Record<string, Relationship> = {
    course_type: { type: 'course_type', id: type.id },
    dates: dateRefs,
    client: client ? { type: 'client', id: client.id } : null,
    trainers: plan.trainers.map((t) => ({ type: 'user', id: t.id })),
  };
  if (location) relationships.location = { type: 'address', id: location.id };
  ctx.put('course', plan.id, attributes, relationships, updatedAt);
  return course;
}

function storeLocation(
  ctx: GenerationContext,
  client: ClientInfo | null,
  createdAt: number,
): { id: string; contactName: string } {
  const { random } = ctx;
  const venue = random.pick(VENUES);
  const place = client
    ? {
        description: client.name,
        ...client.site,
        address_addition: '',
        salutation: client.contactSalutation,
        contact: client.contactName,
      }
    : { ...venue, salutation: venue.contact[0], contact: venue.contact[1] };
  const attributes: AddressAttributes = {
    description: place.description,
    street: `${place.street_name} ${place.street_number}`,
    street_name: place.street_name,
    street_number: place.street_number,
    address_addition: place.address_addition,
    postal_code: place.postal_code,
    city: place.city,
    country: 'Deutschland',
    contact_person_salutation: place.salutation,
    contact_person_name: place.contact,
    phone: place.contact ? (client?.phone ?? landlineNumber(random)) : '',
    mobile: place.contact && random.chance(0.5) ? mobileNumber(random) : '',
    email: client?.email ?? '',
  };
  // Some venues were never geocoded: the service then omits `geo`.
  if (random.chance(0.8)) {
    attributes.geo = {
      lat: round6(TOWN_CENTRE.lat + (random.next() - 0.5) * 0.1),
      lng: round6(TOWN_CENTRE.lng + (random.next() - 0.5) * 0.15),
    };
  }
  const id = ctx.newId('address');
  ctx.put('address', id, attributes, {}, createdAt);
  return { id, contactName: place.contact ? `${place.salutation} ${place.contact}`.trim() : '' };
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function storeCustomFields(ctx: GenerationContext, courseId: string, createdAt: number): void {
  const { random } = ctx;
  if (!random.chance(0.6)) return;
  const chosen = CUSTOM_FIELDS.filter(() => random.chance(0.5));
  chosen.forEach((field, index) => {
    const attributes: CustomfieldAttributes = {
      name: field.name,
      field_type: field.field_type,
      options: [...field.options],
      value: '',
      required: field.required,
      position: index + 1,
    };
    ctx.put(
      'customfield',
      ctx.newId('customfield'),
      attributes,
      { course: { type: 'course', id: courseId } },
      createdAt,
    );
  });
}

interface ParticipationSummary {
  /** Participations not cancelled. */
  attending: number;
  lastChange: number;
}

const PAID_SHARE: Record<ParticipationStatus, number> = {
  attended: 0.95,
  absent: 0.4,
  confirmed: 0.7,
  registered: 0.2,
  cancelled: 0.1,
};

function participationStatus(ctx: GenerationContext, course: CourseInfo): ParticipationStatus {
  const { random } = ctx;
  if (course.status === 'cancelled') return 'cancelled';
  if (course.status === 'completed')
    return random.weighted([
      ['attended', 85],
      ['absent', 8],
      ['cancelled', 7],
    ] as const);
  if (course.status === 'draft')
    return random.weighted([
      ['registered', 93],
      ['cancelled', 7],
    ] as const);
  return random.weighted([
    ['registered', 50],
    ['confirmed', 43],
    ['cancelled', 7],
  ] as const);
}

/** Stores the course's participations (and cancellations of the cancelled ones). */
function storeParticipations(
  ctx: GenerationContext,
  course: CourseInfo,
  plan: CoursePlan,
  count: number,
  courseCreatedAt: number,
  personnel: Personnel,
  business: Business,
): ParticipationSummary {
  const { faker, random } = ctx;
  const summary: ParticipationSummary = { attending: 0, lastChange: 0 };
  const start = course.dates[0]!.from;
  const end = course.dates.at(-1)!.to;
  const registrationEnd = Math.min(start, ctx.anchorInstant);
  const members = new Set<string>();
  let certificates = 0;

  for (let n = 0; n < count; n++) {
    const status = participationStatus(ctx, course);
    const wantsMember = plan.type.internal ? random.chance(0.75) : random.chance(0.05);
    const member = wantsMember ? pickNewMember(ctx, personnel.helpers, members) : undefined;
    const sex = member
      ? member.anrede === 'Frau'
        ? 'female'
        : 'male'
      : random.chance(0.5)
        ? 'female'
        : 'male';
    const firstName = member?.vorname ?? faker.person.firstName(sex);
    const lastName = member?.nachname ?? faker.person.lastName();
    const links = participationLinks(ctx, plan, business, member);

    const id = ctx.newId('participation');
    const createdAt = ctx.past(
      courseCreatedAt + random.next() * Math.max(0, registrationEnd - courseCreatedAt),
    );
    const changedBeforeCourse = (): number =>
      ctx.past(createdAt + random.next() * Math.max(0, registrationEnd - createdAt));
    let updatedAt = random.chance(0.3) ? changedBeforeCourse() : createdAt;
    if (status === 'attended' || status === 'absent')
      updatedAt = ctx.past(end + random.int(1, 48) * HOUR_MS);
    if (status === 'cancelled') {
      updatedAt = changedBeforeCourse();
      const cancellation: CancellationAttributes = {
        reason:
          course.status === 'cancelled'
            ? COURSE_CANCELLED_REASON
            : random.pick(CANCELLATION_REASONS),
        cancelled_at: ctx.dateTime(updatedAt),
      };
      ctx.put(
        'cancellation',
        ctx.newId('cancellation'),
        cancellation,
        { participation: { type: 'participation', id } },
        updatedAt,
      );
    } else {
      summary.attending += 1;
    }
    if (status === 'attended') certificates += 1;

    const attributes: ParticipationAttributes = {
      first_name: firstName,
      last_name: lastName,
      birthday: member
        ? member.gebdat
        : random.chance(0.8)
          ? formatDate(ctx.day(-random.int(16 * 365, 65 * 365)))
          : '',
      email:
        member?.email ?? (random.chance(0.85) ? emailAddress(random, firstName, lastName) : ''),
      phone: member?.handy ?? (random.chance(0.7) ? mobileNumber(random) : ''),
      status,
      attended: status === 'attended',
      paid: random.chance(PAID_SHARE[status]),
      certificate_number:
        status === 'attended'
          ? `${course.courseNumber}-${String(certificates).padStart(2, '0')}`
          : '',
      comment: random.chance(0.08) ? random.pick(PARTICIPATION_COMMENTS) : '',
      created_at: ctx.dateTime(createdAt),
      updated_at: ctx.dateTime(updatedAt),
    };
    ctx.put(
      'participation',
      id,
      attributes,
      { course: { type: 'course', id: course.id }, ...links },
      updatedAt,
    );
    summary.lastChange = Math.max(summary.lastChange, updatedAt);
  }
  return summary;
}

/** A helper not yet in this course, or undefined when the few tries all hit taken ones. */
function pickNewMember(
  ctx: GenerationContext,
  helpers: Person[],
  taken: Set<string>,
): Person | undefined {
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = ctx.random.pick(helpers);
    if (!taken.has(candidate.id)) {
      taken.add(candidate.id);
      return candidate;
    }
  }
  return undefined;
}

/** Who pays: the client of an in-house course, or the employer's insurer (UVT) in open courses. */
function participationLinks(
  ctx: GenerationContext,
  plan: CoursePlan,
  business: Business,
  member: Person | undefined,
): Record<string, Relationship> {
  const { random } = ctx;
  const ref = <T extends ResourceRef['type']>(type: T, id: string | null): ResourceRef | null =>
    id === null ? null : { type, id };
  const user = ref('user', member?.id ?? null);
  if (plan.type.internal) return { company: null, uvt: null, client: null, user };

  let client = plan.client && random.chance(0.95) ? plan.client : null;
  if (!plan.client && random.chance(0.08)) client = random.pick(business.clients);
  let company: { id: string; uvtId: string } | null = null;
  if (client?.companyId) company = { id: client.companyId, uvtId: client.uvtId };
  else if (!client && random.chance(0.55)) company = random.pick(business.companies);
  const uvtId = !plan.type.uvtRecognised
    ? null
    : client?.kind === 'school'
      ? client.uvtId
      : (company?.uvtId ?? null);
  return {
    company: ref('company', company?.id ?? null),
    uvt: ref('uvt', uvtId),
    client: ref('client', client?.id ?? null),
    user,
  };
}
