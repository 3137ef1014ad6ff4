// `--shapes robust` and `--shapes real`: every answer still a valid JSON:API document (the test
// client checks each against the schema), the same seed gives the same bytes, every variant class
// of `robust` occurs at scale small and `real` shows only those public sources show, and a
// tolerant reading of the varied answers gives the same data as the uniform ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_ATTRIBUTES } from '../data/model';
import { startSandbox, type RunningSandbox } from '../server';
import { parseShapes, TYPE_SPELLINGS } from './shapes';
import { ApiClient, many, type Doc, type Res } from './test-client';

const SEED = 5;
const ANCHOR = '2026-03-01';
const HOURS = '/helferstunden?filter[eigene]=false&filter[von]=2000-01-01';

let uniform: RunningSandbox;
let robust: RunningSandbox;
let robustAgain: RunningSandbox;
let real: RunningSandbox;
let uniformOffice: ApiClient;
let robustOffice: ApiClient;
/** Every path the comparisons read, with the canonical type of its primary data. */
const paths: [path: string, type: string][] = [];

beforeAll(async () => {
  const options = { scale: 'small', seed: SEED, anchorDate: ANCHOR } as const;
  [uniform, robust, robustAgain, real] = await Promise.all([
    startSandbox(options),
    startSandbox({ ...options, shapes: 'robust' }),
    startSandbox({ ...options, shapes: 'robust', prefix: '/core/v1' }),
    startSandbox({ ...options, shapes: 'real' }),
  ]);
  uniformOffice = ApiClient.as(uniform, 'office');
  robustOffice = ApiClient.as(robust, 'office');
  const people = many(await uniformOffice.get('/personal'));
  paths.push(['/personal', 'user'], ['/personal?include=organisation', 'user']);
  for (const person of people) {
    paths.push(
      [`/personal/${person.id}/ausbildungen?include=user`, 'ausbildung'],
      [`/personal/${person.id}/ueberpruefungen`, 'ueberpruefung'],
      [`/personal/${person.id}/ehrungen`, 'ehrung'],
    );
  }
  paths.push(
    [HOURS, 'helferstunden'],
    [`${HOURS}&include=user,anlass,typ,anlass.referenz`, 'helferstunden'],
    ['/courses?filter[from]=2000-01-01', 'course'],
    ['/courses/types', 'course_type'],
    ['/uvts', 'uvt'],
    ['/steuersaetze', 'steuersatz'],
    ['/clients', 'client'],
    ['/kalender', 'kalender'],
    ['/benachrichtigungen', 'benachrichtigung'],
  );
  for (const course of many(await uniformOffice.get('/courses?filter[from]=2000-01-01'))) {
    paths.push(
      [`/courses/${course.id}/participations?include=company,uvt`, 'participation'],
      [`/courses/${course.id}/customfields`, 'customfield'],
    );
  }
}, 60_000);
afterAll(() =>
  Promise.all([uniform?.close(), robust?.close(), robustAgain?.close(), real?.close()]),
);

// ---- a tolerant reading, as the client must do it ----

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === '0000-00-00' ||
  (Array.isArray(value) && value.length === 0);

/**
 * null, "", absent and 0000-00-00 alike; numbers as their decimal text; a one-item list as its
 * item; empty lists and objects as absent.
 */
function normalised(value: unknown): unknown {
  if (isEmpty(value)) return undefined;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const items = value.map(normalised).filter((item) => item !== undefined);
    return items.length === 0 ? undefined : items.length === 1 ? items[0] : items;
  }
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value)) {
      const shaped = normalised(member);
      if (shaped !== undefined) result[name] = shaped;
    }
    return Object.keys(result).length === 0 ? undefined : result;
  }
  return value;
}

/**
 * What a tolerant client keeps of a resource: known attributes, read tolerantly; the type from
 * the endpoint. A user's embedded trainings are compared on their own (they may be absent).
 */
function readRecord(resource: Res, type: string): unknown {
  const known = DOCUMENTED_ATTRIBUTES[type] ?? [];
  const attributes: Record<string, unknown> = {};
  for (const name of known)
    if (!(type === 'user' && name === 'ausbildungen')) attributes[name] = resource.attributes[name];
  return {
    type,
    id: resource.id,
    attributes: normalised(attributes) ?? {},
    relationships: resource.relationships ?? {},
  };
}

function readDocument(doc: Doc, type: string) {
  const data = Array.isArray(doc.data) ? doc.data : doc.data ? [doc.data] : [];
  return {
    data: data.map((resource) => readRecord(resource, type)),
    included: (doc.included ?? []).map((resource) => readRecord(resource, resource.type)),
  };
}

// ---- what differs between a uniform and a varied value, by class and path ----

function classify(
  uniformValue: unknown,
  realValue: unknown,
  path: string,
  found: Set<string>,
): void {
  if (Object.is(uniformValue, realValue)) return;
  if (isEmpty(uniformValue) && !Array.isArray(uniformValue)) {
    if (realValue === null) found.add(`null@${path}`);
    else if (realValue === '') found.add(`empty-string@${path}`);
    else if (realValue === '0000-00-00') found.add(`zero-date@${path}`);
    else found.add(`MISMATCH@${path}`);
    return;
  }
  if (typeof uniformValue === 'string' && typeof realValue === 'number') {
    found.add(String(realValue) === uniformValue ? `number@${path}` : `MISMATCH@${path}`);
    return;
  }
  if (typeof uniformValue === 'number' && typeof realValue === 'string') {
    found.add(Number(realValue) === uniformValue ? `numeric-string@${path}` : `MISMATCH@${path}`);
    return;
  }
  if (Array.isArray(uniformValue)) {
    if (!Array.isArray(realValue)) {
      found.add(
        uniformValue.length === 1 && uniformValue[0] === realValue
          ? `single@${path}`
          : `MISMATCH@${path}`,
      );
      return;
    }
    if (realValue.length !== uniformValue.length) found.add(`MISMATCH@${path}`);
    uniformValue.forEach((item, index) => classify(item, realValue[index], `${path}[]`, found));
    return;
  }
  if (typeof uniformValue === 'object' && uniformValue !== null) {
    if (typeof realValue !== 'object' || realValue === null) {
      found.add(`MISMATCH@${path}`);
      return;
    }
    classifyMembers(
      uniformValue as Record<string, unknown>,
      realValue as Record<string, unknown>,
      `${path}.`,
      found,
    );
    return;
  }
  found.add(`MISMATCH@${path}`);
}

function classifyMembers(
  uniformMembers: Record<string, unknown>,
  realMembers: Record<string, unknown>,
  prefix: string,
  found: Set<string>,
): void {
  for (const name of new Set([...Object.keys(uniformMembers), ...Object.keys(realMembers)])) {
    const path = prefix + name;
    if (!(name in uniformMembers)) found.add(`extra@${path}`);
    else if (!(name in realMembers)) {
      const value = uniformMembers[name];
      if (isEmpty(value)) found.add(`absent@${path}`);
      else if (path === 'user.ausbildungen') found.add('without-embedded-trainings');
      else found.add(`LOST@${path}`);
    } else classify(uniformMembers[name], realMembers[name], path, found);
  }
}

interface Pair {
  path: string;
  type: string;
  uniform: Doc;
  varied: Doc;
}

const pairs = new Map<RunningSandbox, Promise<Pair[]>>();

/** The uniform answer and the `varied` sandbox's (robust by default) to every path, read once. */
function answerPairs(varied: RunningSandbox = robust): Promise<Pair[]> {
  let read = pairs.get(varied);
  if (!read) {
    const variedOffice = ApiClient.as(varied, 'office');
    read = Promise.all(
      paths.map(async ([path, type]) => {
        const [uniformAnswer, variedAnswer] = await Promise.all([
          uniformOffice.get(path),
          variedOffice.get(path),
        ]);
        expect(uniformAnswer.status, path).toBe(200);
        expect(variedAnswer.status, path).toBe(200);
        // The same documents apart from the origin (each sandbox has its own port).
        const parse = (text: string, baseUrl: string) =>
          JSON.parse(text.replaceAll(baseUrl, '<base>')) as Doc;
        return {
          path,
          type,
          uniform: parse(uniformAnswer.text, uniform.baseUrl),
          varied: parse(variedAnswer.text, varied.baseUrl),
        };
      }),
    );
    pairs.set(varied, read);
  }
  return read;
}

function resources(doc: Doc): Res[] {
  const data = Array.isArray(doc.data) ? doc.data : doc.data ? [doc.data] : [];
  return [...data, ...(doc.included ?? [])];
}

describe('--shapes', () => {
  it('accepts uniform, real and robust only', async () => {
    expect(parseShapes('real')).toBe('real');
    expect(parseShapes('robust')).toBe('robust');
    expect(() => parseShapes('wild')).toThrow(/"uniform".*"real".*"robust"/);
    await expect(startSandbox({ shapes: 'odd' as 'real' })).rejects.toThrow(RangeError);
  });
});

describe('--shapes real', () => {
  it('shows only the shapes public sources show: an empty date also as 0000-00-00, lists stay lists', async () => {
    const found = new Set<string>();
    for (const pair of await answerPairs(real)) {
      const uniformResources = resources(pair.uniform);
      const realResources = resources(pair.varied);
      expect(realResources.map((r) => `${r.type}:${r.id}`)).toEqual(
        uniformResources.map((r) => `${r.type}:${r.id}`),
      );
      realResources.forEach((resource, index) => {
        const counterpart = uniformResources[index]!;
        classifyMembers(counterpart.attributes, resource.attributes, `${counterpart.type}.`, found);
        expect(resource.relationships).toEqual(counterpart.relationships);
      });
    }
    const labels = [...found];
    expect(labels.filter((label) => !label.startsWith('zero-date@'))).toEqual([]);
    expect(labels).toContain('zero-date@user.austritt_datum');
    expect(labels).toContain('zero-date@user.ausbildungen[].gueltig_bis');
    // `gruppen_namen` and `fahrerlaubnis.klassen` (SERVICE-NOTES: lists of strings) stay lists.
    for (const person of many(await ApiClient.as(real, 'office').get('/personal'))) {
      expect(Array.isArray(person.attributes.gruppen_namen)).toBe(true);
      const licence = person.attributes.fahrerlaubnis as { klassen?: unknown } | undefined;
      if (licence?.klassen !== undefined) expect(Array.isArray(licence.klassen)).toBe(true);
    }
  });

  it('carries the same data as the uniform answers, read tolerantly', async () => {
    for (const pair of await answerPairs(real)) {
      expect(readDocument(pair.varied, pair.type), pair.path).toEqual(
        readDocument(pair.uniform, pair.type),
      );
    }
  });
});

describe('--shapes robust', () => {
  it('answers every operation with valid JSON:API documents', async () => {
    // The test client checks every answer against the JSON:API 1.0 response schema.
    const pairsRead = await answerPairs();
    expect(pairsRead.length).toBeGreaterThan(100);
    const course = many(await robustOffice.get('/courses?filter[from]=2000-01-01'))[0]!;
    const hour = many(await robustOffice.get(HOURS))[0]!;
    const client = many(await robustOffice.get('/clients'))[0]!;
    for (const path of [
      '/personal/selbst',
      `/helferstunden/${hour.id}`,
      '/helferstunden/einstellungen/selbst',
      '/organisation/selbst/stammdaten',
      `/courses/${course.id}?include=client,course_type`,
      `/clients/${client.id}`,
      `/clients/${client.id}/courses`,
      `/clients/${client.id}/participants`,
    ])
      expect((await robustOffice.get(path)).status, path).toBe(200);
  });

  it('gives the same bytes for the same seed', async () => {
    const other = ApiClient.as(robustAgain, 'office');
    for (const [path] of paths.slice(0, 12).concat(paths.slice(-12))) {
      const [first, second, again] = await Promise.all([
        robustOffice.get(path),
        other.get(path),
        robustOffice.get(path),
      ]);
      expect(again.text, path).toBe(first.text);
      expect(second.text.replaceAll(robustAgain.baseUrl, '<base>'), path).toBe(
        first.text.replaceAll(robust.baseUrl, '<base>'),
      );
    }
    const reseeded = await startSandbox({
      scale: 'small',
      seed: SEED,
      anchorDate: ANCHOR,
      shapes: 'uniform',
    });
    try {
      const plain = await ApiClient.as(reseeded, 'office').get('/personal');
      expect(plain.text.replaceAll(reseeded.baseUrl, '<base>')).toBe(
        (await uniformOffice.get('/personal')).text.replaceAll(uniform.baseUrl, '<base>'),
      );
    } finally {
      await reseeded.close();
    }
  });

  it('shows every variant class at scale small, and only those', async () => {
    const found = new Set<string>();
    const spellings = new Map<string, Set<string>>();
    for (const pair of await answerPairs()) {
      const uniformResources = resources(pair.uniform);
      const variedResources = resources(pair.varied);
      expect(variedResources.map((resource) => resource.id)).toEqual(
        uniformResources.map((resource) => resource.id),
      );
      const variedData = Array.isArray(pair.varied.data) ? pair.varied.data : [];
      for (const resource of variedData) {
        if (resource.type !== pair.type) {
          const seen = spellings.get(pair.type) ?? new Set<string>();
          seen.add(resource.type);
          spellings.set(pair.type, seen);
        }
      }
      variedResources.forEach((resource, index) => {
        const counterpart = uniformResources[index]!;
        classifyMembers(counterpart.attributes, resource.attributes, `${counterpart.type}.`, found);
        expect(resource.relationships).toEqual(counterpart.relationships);
        expect(resource.links).toEqual(counterpart.links);
      });
      for (const resource of resources(pair.uniform)) expect(resource.type).not.toMatch(/[A-Z-]/);
      for (const resource of pair.varied.included ?? [])
        expect(Object.keys(TYPE_SPELLINGS).flatMap((t) => TYPE_SPELLINGS[t])).not.toContain(
          resource.type,
        );
    }
    const labels = [...found];
    const some = (pattern: RegExp) => labels.filter((label) => pattern.test(label));
    expect(some(/^(MISMATCH|LOST)@/), 'changes of meaning').toEqual([]);
    // empty values, also nested and in list items, and dates as 0000-00-00
    expect(some(/^null@/).length).toBeGreaterThan(0);
    expect(some(/^empty-string@/).length).toBeGreaterThan(0);
    expect(some(/^absent@/).length).toBeGreaterThan(0);
    expect(some(/^zero-date@/).length).toBeGreaterThan(0);
    expect(some(/^(null|absent|zero-date)@user\.fahrerlaubnis\./).length).toBeGreaterThan(0);
    expect(some(/^(null|absent)@ueberpruefung\.pruefergebnis\./).length).toBeGreaterThan(0);
    expect(some(/^(null|absent|zero-date)@user\.ausbildungen\[\]\./).length).toBeGreaterThan(0);
    expect(some(/^(null|absent)@user\.benutzerdefinierte_felder\[\]\./).length).toBeGreaterThan(0);
    // users with and without embedded trainings; empty qualifications left out
    expect(labels).toContain('without-embedded-trainings');
    expect(labels).toContain('absent@user.qualifikationen');
    // other JSON types where the meaning stays clear
    expect(labels).toContain('number@user.plz');
    // a phone field as a number: office extensions such as "4711" (demo/personnel.ts)
    expect(labels).toContain('number@user.teldienst');
    expect(labels).toContain('numeric-string@helferstunden.stunden');
    expect(labels).toContain('numeric-string@course.max_participants');
    expect(labels).toContain('single@user.gruppen_namen');
    // attributes the client does not know
    expect(some(/^extra@[a-z_]+\.x_intern_flag$/).length).toBeGreaterThan(0);
    expect(some(/^extra@[a-z_]+\.letzte_aenderung_von$/).length).toBeGreaterThan(0);
    // other type spellings of the open types, in the data of their lists
    for (const type of Object.keys(TYPE_SPELLINGS)) {
      const seen = [...(spellings.get(type) ?? [])];
      expect(seen.length, `spellings of ${type}`).toBeGreaterThan(0);
      for (const spelling of seen) expect(TYPE_SPELLINGS[type]).toContain(spelling);
    }
    expect([...spellings.keys()].sort()).toEqual(Object.keys(TYPE_SPELLINGS).sort());
    // one spelling per answer
    for (const pair of await answerPairs()) {
      const data = Array.isArray(pair.varied.data) ? pair.varied.data : [];
      expect(new Set(data.map((resource) => resource.type)).size).toBeLessThanOrEqual(1);
    }
  });

  it('carries the same data as the uniform answers, read tolerantly', async () => {
    for (const pair of await answerPairs()) {
      expect(readDocument(pair.varied, pair.type), pair.path).toEqual(
        readDocument(pair.uniform, pair.type),
      );
    }
  });

  it('serves the trainings of users without the embedded list from their own endpoint', async () => {
    const uniformPeople = new Map(
      many(await uniformOffice.get('/personal')).map((person) => [person.id, person]),
    );
    let without = 0;
    let withList = 0;
    for (const person of many(await robustOffice.get('/personal'))) {
      const expected = normalised(uniformPeople.get(person.id)!.attributes.ausbildungen);
      if ('ausbildungen' in person.attributes) {
        withList += 1;
        expect(normalised(person.attributes.ausbildungen)).toEqual(expected);
        continue;
      }
      without += 1;
      const known = DOCUMENTED_ATTRIBUTES.ausbildung ?? [];
      const served = many(await robustOffice.get(`/personal/${person.id}/ausbildungen`)).map(
        (training) => ({
          id: training.id,
          ...Object.fromEntries(known.map((name) => [name, training.attributes[name]])),
        }),
      );
      expect(normalised(served)).toEqual(expected);
    }
    expect(without).toBeGreaterThan(0);
    expect(withList).toBeGreaterThan(0);
  });

  it('varies the answers of writes too (last: it changes the data)', async () => {
    const person = many(await robustOffice.get('/personal'))[0]!;
    const created = await robustOffice.post('/kalender', {
      data: { type: 'kalender', attributes: { name: 'Probe', beschreibung: '' } },
    });
    expect(created.status).toBe(201);
    const patched = await robustOffice.patch(`/personal/${person.id}`, {
      data: { type: 'user', id: person.id, attributes: { bemerkung: '' } },
    });
    expect(patched.status).toBe(200);
    // One record looks the same in every answer that carries it.
    const listed = many(await robustOffice.get('/personal')).find((user) => user.id === person.id);
    expect(JSON.stringify(listed)).toBe(JSON.stringify(patched.doc.data));
  });
});
