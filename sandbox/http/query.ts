// Query parameters, read strictly: every operation declares the parameters it understands, and
// an unknown parameter, a repeated one or a value that does not parse is a 400 naming it in
// `source.parameter`. A client whose filter the real service would silently ignore fails here.
import type { FastifyRequest } from 'fastify';
import { berlinMidnight, isDate, isDateTime } from './berlin-time';
import { badParameter } from './errors';

/** A relationship path to follow for `include`, e.g. ['anlass', 'referenz']. */
export type IncludePath = readonly string[];

/** Paging parameters are always accepted; they only take effect when the sandbox pages (--page-size). */
const PAGING_PARAMETERS = ['page[number]', 'page[size]'];

export class Query {
  private constructor(private readonly values: ReadonlyMap<string, string>) {}

  static read(request: FastifyRequest, accepted: readonly string[]): Query {
    const raw = (request.query ?? {}) as Record<string, string | string[]>;
    const values = new Map<string, string>();
    for (const [name, value] of Object.entries(raw)) {
      if (!accepted.includes(name) && !PAGING_PARAMETERS.includes(name)) {
        const known = accepted.length > 0 ? `; this operation accepts ${accepted.join(', ')}` : '';
        throw badParameter(name, `Unknown query parameter "${name}"${known}.`);
      }
      if (Array.isArray(value))
        throw badParameter(name, `The query parameter "${name}" is given more than once.`);
      values.set(name, value);
    }
    return new Query(values);
  }

  string(name: string): string | undefined {
    return this.values.get(name);
  }

  /** A `YYYY-MM-DD` date, returned as the instant of Berlin midnight at its start. */
  dateMidnight(name: string): number | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (!isDate(value))
      throw badParameter(name, `"${value}" is not a date of the form YYYY-MM-DD.`);
    return berlinMidnight(value);
  }

  /**
   * An ISO 8601 date-time with offset ('Y-m-dTH:i:sP'), returned as an instant. A `+` in the
   * offset must be sent URL-encoded (%2B): a bare `+` reads as a space and is refused, as a
   * PHP service would misread it too.
   */
  instant(name: string): number | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (!isDateTime(value)) {
      const hint = value.includes(' ') ? ' (a "+" in the offset must be URL-encoded as %2B)' : '';
      throw badParameter(
        name,
        `"${value}" is not a date-time with offset like 2026-03-01T08:00:00+01:00${hint}.`,
      );
    }
    return Date.parse(value);
  }

  boolean(name: string): boolean | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw badParameter(name, `"${value}" is not a boolean (true, false, 1 or 0).`);
  }

  /** A comma-separated list whose every item must be one of `allowed`. */
  list<T extends string>(name: string, allowed: readonly T[]): T[] | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    const items = value.split(',').map((item) => item.trim());
    for (const item of items) {
      if (!(allowed as readonly string[]).includes(item)) {
        throw badParameter(name, `"${item}" is not one of ${allowed.join(', ')}.`);
      }
    }
    return items as T[];
  }

  /** `include`: comma-separated names, each mapped to the relationship path it follows. */
  include(allowed: Readonly<Record<string, IncludePath>>): IncludePath[] {
    const value = this.values.get('include');
    if (value === undefined || value === '') return [];
    return value.split(',').map((name) => {
      const path = Object.hasOwn(allowed, name) ? allowed[name] : undefined;
      if (!path) {
        const names = Object.keys(allowed);
        const accepted = names.length > 0 ? `one of ${names.join(', ')}` : 'nothing here';
        throw badParameter('include', `Cannot include "${name}"; include accepts ${accepted}.`);
      }
      return path;
    });
  }

  /** A positive integer parameter (paging). */
  positiveInteger(name: string): number | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (!/^[1-9]\d{0,8}$/.test(value))
      throw badParameter(name, `"${value}" is not a positive integer.`);
    return Number(value);
  }
}
