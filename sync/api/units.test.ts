// The client's pure parts: empty values, Retry-After, backoff, addresses, included lookup, schemas.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs } from './backoff';
import { indexIncluded, relatedIds } from './included';
import { createRateLimiter } from './rate-limiter';
import { helferstundenResource } from './endpoints/hours';
import { userResource } from './endpoints/personnel';
import { isNoValue } from './schemas/tolerance';
import { buildUrl, formatDateTime, normalizeBase, resolveLink } from './urls';

describe('isNoValue', () => {
  it('knows the service empty forms and nothing else', () => {
    expect(isNoValue('')).toBe(true);
    expect(isNoValue('0000-00-00')).toBe(true);
    expect(isNoValue('0000-00-00 00:00:00')).toBe(true);
    expect(isNoValue(undefined)).toBe(true);
    expect(isNoValue(null)).toBe(true);
    expect(isNoValue('2026-03-01')).toBe(false);
    expect(isNoValue(0)).toBe(false);
    expect(isNoValue(false)).toBe(false);
    expect(isNoValue(' ')).toBe(false);
  });
});

describe('Retry-After', () => {
  it('reads delta seconds and HTTP dates, the latter against the service clock', () => {
    expect(parseRetryAfter('7', null)).toBe(7);
    expect(parseRetryAfter(null, null)).toBeUndefined();
    expect(parseRetryAfter('soon', null)).toBeUndefined();
    const serverDate = new Date('2026-03-01T08:00:00Z');
    expect(parseRetryAfter('Sun, 01 Mar 2026 08:00:30 GMT', serverDate)).toBe(30);
    expect(parseRetryAfter('Sun, 01 Mar 2026 07:59:00 GMT', serverDate)).toBe(0);
    const localNow = () => Date.parse('2026-03-01T08:00:00Z');
    expect(parseRetryAfter('Sun, 01 Mar 2026 08:01:00 GMT', null, localNow)).toBe(60);
  });

  it('backs off exponentially with jitter, and waits as long as the service asks', () => {
    const low = () => 0;
    const high = () => 0.999999;
    const options = { baseMs: 100, maxMs: 1000 };
    expect(retryDelayMs(0, undefined, options, low)).toBe(50);
    expect(retryDelayMs(0, undefined, options, high)).toBeCloseTo(100, 0);
    expect(retryDelayMs(3, undefined, options, low)).toBe(400);
    expect(retryDelayMs(10, undefined, options, high)).toBeLessThanOrEqual(1000);
    expect(retryDelayMs(0, 2, options, low)).toBe(2000);
    expect(retryDelayMs(0, 2, options, high)).toBeLessThan(2100);
  });
});

describe('addresses', () => {
  const base = normalizeBase('http://127.0.0.1:9/core/v1');

  it('keeps the base path and the literal filter keys; encodes values', () => {
    const url = buildUrl(base, '/personal', {
      'filter[updated_since]': '2026-03-01T08:00:00+00:00',
      'filter[status]': ['aktiv', 'extern'],
      include: [],
      absent: undefined,
      'filter[eigene]': false,
    });
    expect(url.pathname).toBe('/core/v1/personal');
    expect(url.search).toBe(
      '?filter[updated_since]=2026-03-01T08%3A00%3A00%2B00%3A00&filter[status]=aktiv%2Cextern&filter[eigene]=false',
    );
    expect(url.searchParams.get('filter[updated_since]')).toBe('2026-03-01T08:00:00+00:00');
  });

  it('resolves links.next absolute, root-relative and relative without losing the prefix', () => {
    expect(resolveLink(base, 'http://127.0.0.1:9/core/v1/personal?page[number]=2')?.href).toBe(
      'http://127.0.0.1:9/core/v1/personal?page[number]=2',
    );
    expect(resolveLink(base, '/core/v1/personal?page=2')?.pathname).toBe('/core/v1/personal');
    expect(resolveLink(base, '/personal?page=2')?.pathname).toBe('/core/v1/personal');
    expect(resolveLink(base, 'personal?page=2')?.pathname).toBe('/core/v1/personal');
    expect(resolveLink(base, 'http://elsewhere.example/core/v1/personal')).toBeNull();
    expect(resolveLink(base, '//elsewhere.example/x')).toBeNull();
  });

  it('formats date-time filters as Y-m-dTH:i:sP in UTC with seconds', () => {
    expect(formatDateTime(new Date('2026-03-01T08:00:00.987+01:00'))).toBe(
      '2026-03-01T07:00:00+00:00',
    );
    expect(() => formatDateTime(new Date('nonsense'))).toThrow(RangeError);
  });
});

describe('included', () => {
  const course = {
    type: 'course',
    id: '1',
    relationships: {
      dates: {
        data: [
          { type: 'course_date', id: '10' },
          { type: 'course_date', id: '11' },
        ],
      },
      location: { data: { type: 'address', id: '5' } },
      client: { data: null },
    },
  };

  it('lists the ids of to-one, to-many, empty and missing relationships', () => {
    expect(relatedIds(course, 'dates')).toEqual(['10', '11']);
    expect(relatedIds(course, 'location')).toEqual(['5']);
    expect(relatedIds(course, 'client')).toEqual([]);
    expect(relatedIds(course, 'trainers')).toEqual([]);
    expect(relatedIds({}, 'anything')).toEqual([]);
  });

  it('finds included resources by type and id', () => {
    const index = indexIncluded([
      { type: 'address', id: '5', attributes: { city: 'Kassel' } },
      { type: 'course_date', id: '10', attributes: { from: '2026-03-01T08:00:00+01:00', to: '' } },
    ]);
    expect(index.size).toBe(2);
    expect(index.get('address', '5')?.attributes.city).toBe('Kassel');
    expect(index.get('address', '10')).toBeUndefined();
    expect(index.get('unknown_type', '5')).toBeUndefined();
  });
});

describe('resource schemas', () => {
  const person = {
    type: 'user',
    id: '9aabc46f91700bf0d97f625b7c5eeacf',
    attributes: {
      vorname: 'Erika',
      nachname: 'Muster',
      status: 'aktiv',
      gebdat: '0000-00-00',
      austritt_datum: '',
      mitgliednr: '',
      unknown_attribute: { kept: true },
      ausbildungen: [{ id: '3', bezeichnung: 'Sanitäter', datum: '2020-01-01', gueltig_bis: '' }],
    },
    relationships: { organisation: { data: { type: 'organisation', id: '1' } } },
  };

  it('reads the service empty forms as no value and keeps unknown attributes', () => {
    const parsed = userResource.parse(person);
    expect(parsed.attributes).not.toHaveProperty('gebdat');
    expect(parsed.attributes).not.toHaveProperty('mitgliednr');
    expect(parsed.attributes.unknown_attribute).toEqual({ kept: true });
    expect(parsed.attributes.ausbildungen).toEqual([
      { id: '3', bezeichnung: 'Sanitäter', datum: '2020-01-01' },
    ]);
  });

  it('rejects only what cannot be read at all (see schemas/tolerance.test.ts)', () => {
    expect(userResource.safeParse({ ...person, id: {} }).success).toBe(false);
    expect(userResource.safeParse({ ...person, type: 'course' }).success).toBe(false);
    const noName = { ...person, attributes: { ...person.attributes, nachname: undefined } };
    expect(userResource.safeParse(noName).success).toBe(true);
    const badDate = { ...person, attributes: { ...person.attributes, gebdat: '1.2.1990' } };
    expect(userResource.parse(badDate).attributes).not.toHaveProperty('gebdat');
    const nullText = { ...person, attributes: { ...person.attributes, mitgliednr: null } };
    expect(userResource.safeParse(nullText).success).toBe(true);
  });

  it('reads null and numeric strings in hours, and requires a readable start', () => {
    const hours = {
      type: 'helferstunden',
      id: '4',
      attributes: { von: '2026-03-01T08:00:00+01:00', bis: null, stunden: 2.5, anfahrt_km: null },
    };
    expect(helferstundenResource.safeParse(hours).success).toBe(true);
    const stringHours = { ...hours, attributes: { ...hours.attributes, stunden: '2.5' } };
    expect(helferstundenResource.parse(stringHours).attributes.stunden).toBe(2.5);
    const noStart = { ...hours, attributes: { ...hours.attributes, von: null } };
    expect(helferstundenResource.safeParse(noStart).success).toBe(false);
  });
});

describe('rate limiter', () => {
  it('spaces requests evenly and lets a cancelled waiter give its turn back', async () => {
    let now = 0;
    const limiter = createRateLimiter(60_000, () => now); // one per millisecond
    await limiter.take();
    const controller = new AbortController();
    const waiting = limiter.take(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    now = 1;
    await limiter.take(); // the returned turn: due at once
    expect(() => createRateLimiter(0)).toThrow(RangeError);
  });
});
