// Unreadable records for the quarantine tests: `--faults unreadable=RATE` (seeded, per resource
// object of a list answer) and the running sandbox's breakRecord/repairRecord (one chosen record).
// Such answers do not pass the JSON:API schema (a resource's `attributes` is not an object), so
// they are read with plain fetch here, and only their envelope is checked.
import { afterEach, describe, expect, it } from 'vitest';
import { jsonApiViolations } from '../../test/support/jsonapi-conformance';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../server';
import { parseFaultSpec } from './faults';
import type { Res } from './test-client';

const HOURS = '/helferstunden?filter[eigene]=false&filter[von]=2000-01-01';

const started: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ scale: 'small', anchorDate: '2026-03-01', ...options });
  started.push(sandbox);
  return sandbox;
}

interface Envelope {
  jsonapi: { version: string };
  data: Res[] | Res;
  links: { self: string };
}

async function read(
  sandbox: RunningSandbox,
  path: string,
): Promise<{ text: string; doc: Envelope }> {
  const token = sandbox.users.find((user) => user.role === 'office')!.accessToken;
  const response = await fetch(sandbox.baseUrl + path, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const doc = JSON.parse(text) as Envelope;
  // The envelope stays valid: jsonapi, data, and every resource with type, id and links.
  expect(doc.jsonapi).toEqual({ version: '1.0' });
  for (const resource of Array.isArray(doc.data) ? doc.data : [doc.data]) {
    expect(typeof resource.type).toBe('string');
    expect(typeof resource.id).toBe('string');
    expect(resource.links.self).toMatch(/^http/);
  }
  return { text, doc };
}

const isUnreadable = (resource: Res): boolean =>
  typeof resource.attributes !== 'object' ||
  (resource.type === 'helferstunden' && typeof resource.attributes.von !== 'string');

describe('--faults unreadable=RATE', () => {
  it('is parsed beside the request faults and not counted toward their total', () => {
    expect(parseFaultSpec('error=0.6,unreadable=0.5')).toEqual({
      error: 0.6,
      throttle: 0,
      slow: 0,
      malformed: 0,
      lost: 0,
      unreadable: 0.5,
    });
    expect(() => parseFaultSpec('unreadable=1.5')).toThrow(/between 0 and 1/);
    expect(parseFaultSpec('error=0.1')).not.toHaveProperty('unreadable');
  });

  it('makes about that share of a list unreadable, the rest as without, seeded', async () => {
    const [clean, faulty, again] = await Promise.all([
      sandboxWith({ seed: 3 }),
      sandboxWith({ seed: 3, faults: 'unreadable=0.1' }),
      sandboxWith({ seed: 3, faults: 'unreadable=0.1' }),
    ]);
    const expected = (await read(clean, HOURS)).doc.data as Res[];
    const answer = await read(faulty, HOURS);
    const hours = answer.doc.data as Res[];
    expect(hours.map((hour) => hour.id)).toEqual(expected.map((hour) => hour.id));
    const broken = hours.filter(isUnreadable);
    expect(broken.length).toBeGreaterThan(hours.length * 0.03);
    expect(broken.length).toBeLessThan(hours.length * 0.2);
    const forms = new Set(
      broken.map((hour) =>
        typeof hour.attributes === 'object' ? 'von-object' : `attributes-${typeof hour.attributes}`,
      ),
    );
    expect(forms).toEqual(new Set(['attributes-string', 'attributes-number', 'von-object']));
    hours.forEach((hour, index) => {
      const twin = expected[index]!;
      expect(hour.type).toBe(twin.type);
      expect(hour.relationships).toEqual(twin.relationships);
      expect(hour.links.self.replace(faulty.baseUrl, '')).toBe(
        twin.links.self.replace(clean.baseUrl, ''),
      );
      if (!isUnreadable(hour)) expect(hour.attributes).toEqual(twin.attributes);
    });
    // The same sequence of requests meets the same faults; the next answer meets others.
    const second = await read(again, HOURS);
    expect(second.text.replaceAll(again.baseUrl, '')).toBe(
      answer.text.replaceAll(faulty.baseUrl, ''),
    );
    const next = (await read(faulty, HOURS)).doc.data as Res[];
    expect(next.filter(isUnreadable).map((hour) => hour.id)).not.toEqual(
      broken.map((hour) => hour.id),
    );
    // Single-resource answers are not touched by the rate.
    for (const hour of broken.slice(0, 3)) {
      const single = await read(faulty, `/helferstunden/${hour.id}`);
      expect(jsonApiViolations(JSON.parse(single.text))).toEqual([]);
    }
  });
});

describe('breakRecord / repairRecord', () => {
  it('makes exactly the chosen record unreadable until repaired, without changing the store', async () => {
    const sandbox = await sandboxWith({ seed: 4 });
    const before = await read(sandbox, HOURS);
    const hours = before.doc.data as Res[];
    const chosen = hours[Math.floor(hours.length / 2)]!;
    const stored = sandbox.store.get('helferstunden', chosen.id);

    sandbox.breakRecord('helferstunden', chosen.id);
    const broken = (await read(sandbox, HOURS)).doc.data as Res[];
    expect(broken.filter(isUnreadable).map((hour) => hour.id)).toEqual([chosen.id]);
    const target = broken.find((hour) => hour.id === chosen.id)!;
    expect(typeof target.attributes).toBe('string');
    expect(target.type).toBe('helferstunden');
    expect(target.relationships).toEqual(chosen.relationships);
    expect(broken.filter((hour) => hour.id !== chosen.id)).toEqual(
      hours.filter((hour) => hour.id !== chosen.id),
    );
    // Wherever it is primary data: its single answer too.
    const single = (await read(sandbox, `/helferstunden/${chosen.id}`)).doc.data as Res;
    expect(typeof single.attributes).toBe('string');
    expect(sandbox.store.get('helferstunden', chosen.id)).toEqual(stored);

    sandbox.breakRecord('helferstunden', chosen.id, 'attributes-number');
    const asNumber = ((await read(sandbox, HOURS)).doc.data as Res[]).find(
      (hour) => hour.id === chosen.id,
    )!;
    expect(typeof asNumber.attributes).toBe('number');

    sandbox.breakRecord('helferstunden', chosen.id, 'von-object');
    const withObject = await read(sandbox, HOURS);
    // This form keeps the whole document valid JSON:API.
    expect(jsonApiViolations(JSON.parse(withObject.text))).toEqual([]);
    const hour = (withObject.doc.data as Res[]).find((entry) => entry.id === chosen.id)!;
    expect(typeof hour.attributes.von).toBe('object');
    expect({ ...hour.attributes, von: chosen.attributes.von }).toEqual(chosen.attributes);

    expect(sandbox.repairRecord('helferstunden', chosen.id)).toBe(true);
    expect(sandbox.repairRecord('helferstunden', chosen.id)).toBe(false);
    expect((await read(sandbox, HOURS)).text).toBe(before.text);
  });

  it('works with the varied shapes and refuses unknown records and forms', async () => {
    const sandbox = await sandboxWith({ seed: 4, shapes: 'robust' });
    const people = (await read(sandbox, '/personal')).doc.data as Res[];
    const chosen = people[2]!;
    sandbox.breakRecord('user', chosen.id);
    const after = (await read(sandbox, '/personal')).doc.data as Res[];
    expect(after.filter(isUnreadable).map((person) => person.id)).toEqual([chosen.id]);
    expect(after.filter((person) => person.id !== chosen.id)).toEqual(
      people.filter((person) => person.id !== chosen.id),
    );
    expect(() => sandbox.breakRecord('user', 'nobody')).toThrow(/no user nobody/);
    expect(() => sandbox.breakRecord('user', chosen.id, 'von-object')).toThrow(/hour entries/);
  });
});
