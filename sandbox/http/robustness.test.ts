// Bad input never crashes the sandbox nor changes its data: every write operation, fed with
// bodies that are no valid request, answers a 4xx JSON:API error and leaves the store as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_TYPES } from '../data/store';
import { startSandbox, type RunningSandbox } from '../server';
import { ApiClient } from './test-client';

let sandbox: RunningSandbox;
let office: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 13 });
  office = ApiClient.as(sandbox, 'office');
});
afterAll(() => sandbox.close());

function snapshot(): string {
  return JSON.stringify(RESOURCE_TYPES.map((type) => sandbox.store.all(type)));
}

/** Every write operation with a real target, and the type its body names. */
function writes(): [method: string, path: string, type: string][] {
  const store = sandbox.store;
  const user = store.all('user')[0]!.id;
  const hours = store.all('helferstunden')[0]!.id;
  const anlass = store.all('helferstunden_anlass')[0]!.id;
  const officeId = sandbox.users[0]!.id;
  const notification = store.all('benachrichtigung').find((n) => n.id.endsWith(officeId))!.id;
  const participation = store
    .all('participation')
    .find((p) => p.attributes.status !== 'cancelled')!;
  const course = (participation.relationships.course as { id: string }).id;
  const field = store.all('customfield')[0]!;
  const fieldCourse = (field.relationships.course as { id: string }).id;
  return [
    ['POST', '/personal', 'user'],
    ['PATCH', `/personal/${user}`, 'user'],
    ['PUT', `/personal/user_id/${user}`, 'user'],
    ['PUT', '/personal/mitgliednr/NEU-1', 'user'],
    ['POST', '/kalender', 'kalender'],
    ['POST', '/helferstunden', 'helferstunden'],
    ['PATCH', `/helferstunden/${hours}`, 'helferstunden'],
    ['POST', '/helferstunden/anlass', 'helferstunden_anlass'],
    ['PATCH', `/helferstunden/anlass/${anlass}`, 'helferstunden_anlass'],
    ['PATCH', `/benachrichtigungen/${notification}`, 'benachrichtigung'],
    ['POST', '/courses', 'course'],
    ['POST', `/courses/${course}/participations`, 'participation'],
    ['PATCH', `/courses/${course}/participations/${participation.id}`, 'participation'],
    ['POST', `/courses/${course}/participations/${participation.id}/cancel`, 'cancellation'],
    ['POST', `/courses/${fieldCourse}/customfields`, 'customfield'],
    ['PATCH', `/courses/${fieldCourse}/customfields/${field.id}`, 'customfield'],
  ];
}

/** Bodies that are wrong in every way a client can get them wrong; `id` is the target's when there is one. */
function badBodies(type: string, id: string | undefined): unknown[] {
  const data = (extra: Record<string, unknown>) => ({
    data: { type, ...(id ? { id } : {}), ...extra },
  });
  const everyFieldWrong = Object.fromEntries(
    [
      'vorname',
      'nachname',
      'name',
      'von',
      'stunden',
      'gelesen',
      'typ',
      'title',
      'first_name',
      'last_name',
      'field_type',
      'value',
      'reason',
      'status',
      'qualifikationen',
    ].map((name) => [name, { nested: [1, null] }]),
  );
  return [
    'null',
    '1',
    '"text"',
    '[]',
    '{}',
    '{"data":',
    { data: null },
    { data: [] },
    { data: { id } },
    data({ attributes: [] }),
    data({ attributes: null }),
    data({ attributes: everyFieldWrong }),
    `{"data":{"type":"${type}",${id ? `"id":"${id}",` : ''}"attributes":{"__proto__":{"polluted":true},"constructor":1}}}`,
    data({
      relationships: { anlass: 1, course_type: { data: { type: 'x' } }, company: { data: [] } },
    }),
    data({ relationships: [] }),
    { ...data({ attributes: {} }), included: [1, { type: 'company' }] },
    { ...data({ attributes: {} }), included: {} },
    data({ attributes: { qualifikationen: [{ position: 1 }, null, 'x'] } }),
  ];
}

describe('bad input', () => {
  it('is answered with 4xx errors and changes nothing', async () => {
    const before = snapshot();
    let requests = 0;
    for (const [method, path, type] of writes()) {
      const id = method === 'PATCH' ? path.split('/').at(-1) : undefined;
      for (const body of badBodies(type, id)) {
        const answer = await office.request(method, path, body);
        requests += 1;
        expect(
          answer.status,
          `${method} ${path} ${JSON.stringify(body)}: ${answer.text.slice(0, 200)}`,
        ).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(answer.doc.errors?.length).toBeGreaterThan(0);
      }
    }
    expect(requests).toBeGreaterThan(250);
    expect(snapshot()).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await office.get('/personal/selbst')).status).toBe(200);
  });
});
