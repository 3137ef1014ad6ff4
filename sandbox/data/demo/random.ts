// A small seeded PRNG (sfc32) for the generator's numeric choices. Seeded from faker so one seed
// drives everything; used instead of faker in hot loops because it is an order of magnitude
// faster and its sequence cannot change with a faker upgrade.
import type { Faker } from '@faker-js/faker';

const HEX = '0123456789abcdef';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(faker: Faker) {
    const word = (): number => faker.number.int({ min: 0, max: 0xffff_ffff });
    this.a = word();
    this.b = word();
    this.c = word();
    this.d = word();
    // Warm-up rounds, as recommended for sfc32, so similar seeds diverge.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a |= 0;
    this.b |= 0;
    this.c |= 0;
    this.d |= 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Float in [min, max) rounded to `decimals`. */
  float(min: number, max: number, decimals: number): number {
    const factor = 10 ** decimals;
    return Math.round((min + this.next() * (max - min)) * factor) / factor;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of the entries, each as likely as its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** `count` distinct items (fewer when the list is shorter), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }

  /** Lowercase hex string, e.g. the 32-character user ids. */
  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[Math.floor(this.next() * 16)];
    return out;
  }

  /** Decimal digits, possibly with leading zeros. */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += Math.floor(this.next() * 10);
    return out;
  }
}
