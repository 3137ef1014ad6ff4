// What every part of the generator shares: the seeded sources of randomness, the anchor day,
// id sequences, and the one way records enter the store (with a change time in the past).
import { Faker, base, de, en } from '@faker-js/faker';
import type { Relationship, ResourceType, Store } from '../store';
import { DAY_MS, berlinWallClockToUtc, formatBerlinDateTime } from '../time';
import { Random } from './random';

export type Scale = 'small' | 'medium' | 'large';

export interface ScaleCounts {
  users: number;
  courses: number;
  participations: number;
  hours: number;
  companies: number;
  clients: number;
}

export const SCALES: Readonly<Record<Scale, ScaleCounts>> = {
  small: { users: 50, courses: 12, participations: 70, hours: 300, companies: 10, clients: 4 },
  medium: {
    users: 1_000,
    courses: 120,
    participations: 3_000,
    hours: 10_000,
    companies: 150,
    clients: 40,
  },
  large: {
    users: 10_000,
    courses: 600,
    participations: 18_000,
    hours: 100_000,
    companies: 600,
    clients: 150,
  },
};

export class GenerationContext {
  readonly faker: Faker;
  readonly random: Random;
  /** UTC midnight of the anchor date (day arithmetic). */
  readonly anchorDay: number;
  /** Berlin midnight at the start of the anchor date: "now" of the generated world. */
  readonly anchorInstant: number;
  private readonly sequences = new Map<ResourceType, number>();

  constructor(
    readonly store: Store,
    readonly counts: ScaleCounts,
    seed: number,
    anchorDay: number,
  ) {
    // A private faker instance (the same locale chain as fakerDE): seeding it cannot disturb,
    // or be disturbed by, other code that uses the shared fakerDE.
    this.faker = new Faker({ locale: [de, en, base] });
    this.faker.seed(seed);
    this.random = new Random(this.faker);
    this.anchorDay = anchorDay;
    this.anchorInstant = berlinWallClockToUtc(anchorDay, 0);
  }

  /** The next numeric id of a type (1, 2, ... in generation order). */
  newId(type: ResourceType): string {
    const next = (this.sequences.get(type) ?? Number(this.store.nextId(type)) - 1) + 1;
    this.sequences.set(type, next);
    return String(next);
  }

  /** UTC midnight `days` (whole days, rounded down) after the anchor day; negative: before. */
  day(days: number): number {
    return this.anchorDay + Math.floor(days) * DAY_MS;
  }

  /** An instant no later than just before the anchor: generated changes all lie in the past. */
  past(ms: number): number {
    return Math.min(ms, this.anchorInstant - 60_000);
  }

  /** A random instant in the `days` before the anchor. */
  recent(days: number): number {
    return this.anchorInstant - Math.floor(this.random.next() * days * DAY_MS) - 60_000;
  }

  dateTime(ms: number): string {
    return formatBerlinDateTime(ms);
  }

  put(
    type: ResourceType,
    id: string,
    attributes: object,
    relationships: Record<string, Relationship>,
    changedAt: number,
  ): void {
    this.store.putWithTime(
      { type, id, attributes: attributes as Record<string, unknown>, relationships },
      new Date(this.past(changedAt)).toISOString(),
    );
  }
}

/** ASCII form of a German name for usernames and e-mail addresses ("Jürgen Groß" → "juergen.gross"). */
export function asciiName(name: string): string {
  return name
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '');
}

const MOBILE_PREFIXES = [
  '151',
  '152',
  '157',
  '160',
  '162',
  '170',
  '171',
  '172',
  '173',
  '175',
  '176',
  '177',
  '178',
  '179',
];

/** A German mobile number in national format, e.g. `0171 2345678`. */
export function mobileNumber(random: Random): string {
  return `0${random.pick(MOBILE_PREFIXES)} ${random.digits(random.int(7, 8))}`;
}

/** A landline number of the demo region (area code 01234 belongs to no real place). */
export function landlineNumber(random: Random): string {
  return `01234 ${random.int(1, 9)}${random.digits(random.int(4, 5))}`;
}

const MAIL_DOMAINS = ['example.org', 'example.com', 'example.net'];

/** An address at a reserved example domain, so demo data never mails a real person. */
export function emailAddress(random: Random, first: string, last: string): string {
  return `${asciiName(first)}.${asciiName(last)}@${random.pick(MAIL_DOMAINS)}`;
}
