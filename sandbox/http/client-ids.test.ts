// Client-generated ids (startSandbox({ clientIds })): refused with 403 by default as on the real
// service; with the option, a UUID is an idempotency key on every creation: 201 with the
// service's own id and meta.client_id, the same id again 409 already_exists, nothing twice.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceType } from '../data/store';
import { startSandbox, type RunningSandbox } from '../server';
import { type Answer, ApiClient, expectError, one, type Res } from './test-client';

const folder = mkdtempSync(join(tmpdir(), 'vorort-client-ids-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const kalenderDoc = (id?: string) => ({
  data: { type: 'kalender', ...(id === undefined ? {} : { id }), attributes: { name: 'Outbox' } },
});

/** The meta of the answer's primary resource object. */
const objectMeta = (answer: Answer) => (one(answer) as Res & { meta?: unknown }).meta;
const errorMeta = (answer: Answer) =>
  (answer.doc.errors?.[0] as { meta?: Record<string, unknown> } | undefined)?.meta;

describe('client-generated ids off (default)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ scale: 'small', seed: 5 });
  });
  afterAll(() => sandbox.close());

  it('answers 403 client_generated_id and creates nothing', async () => {
    const before = sandbox.store.count('kalender');
    const error = expectError(
      await ApiClient.as(sandbox, 'office').post('/kalender', kalenderDoc(randomUUID())),
      403,
    );
    expect(error.code).toBe('client_generated_id');
    expect(error.source?.pointer).toBe('/data/id');
    expect(sandbox.store.count('kalender')).toBe(before);
  });
});

describe('client-generated ids on', () => {
  let sandbox: RunningSandbox;
  let office: ApiClient;
  beforeAll(async () => {
    sandbox = await startSandbox({
      scale: 'small',
      seed: 5,
      clientIds: true,
      data: join(folder, 'state.sqlite'),
    });
    office = ApiClient.as(sandbox, 'office');
  });
  afterAll(() => sandbox.close());

  it('creates with the service’s own id and meta.client_id; the same id again is 409', async () => {
    const clientId = randomUUID();
    const before = sandbox.store.count('kalender');
    const created = await office.post('/kalender', kalenderDoc(clientId));
    expect(created.status).toBe(201);
    const kalender = one(created);
    expect(kalender.id).toMatch(/^[1-9]\d*$/);
    expect(objectMeta(created)).toEqual({ client_id: clientId });
    expect(created.headers.get('location')).toBe(kalender.links.self);

    const again = await office.post('/kalender', kalenderDoc(clientId));
    const error = expectError(again, 409);
    expect(error.code).toBe('already_exists');
    expect(error.source?.pointer).toBe('/data/id');
    expect(errorMeta(again)).toEqual({ client_id: clientId, type: 'kalender', id: kalender.id });
    // Case does not make a UUID another one.
    expectError(await office.post('/kalender', kalenderDoc(clientId.toUpperCase())), 409);
    expect(sandbox.store.count('kalender')).toBe(before + 1);
  });

  it('stays 409 after the record was deleted: nothing is created twice', async () => {
    const clientId = randomUUID();
    const kalender = one(await office.post('/kalender', kalenderDoc(clientId)));
    expect((await office.delete(`/kalender/${kalender.id}`)).status).toBe(204);
    expect(
      errorMeta(expectErrorAnswer(await office.post('/kalender', kalenderDoc(clientId)))),
    ).toMatchObject({ id: kalender.id });
  });

  it('refuses an id that is no UUID with 403, as without the option', async () => {
    const before = sandbox.store.count('kalender');
    for (const id of ['17', 'local-1', `local-${randomUUID()}`, `${randomUUID()}x`]) {
      const error = expectError(await office.post('/kalender', kalenderDoc(id)), 403);
      expect(error.code).toBe('client_generated_id');
      expect(error.detail).toMatch(/UUID/);
    }
    expect(sandbox.store.count('kalender')).toBe(before);
  });

  it('still creates without an id, with no meta', async () => {
    const created = await office.post('/kalender', kalenderDoc());
    expect(created.status).toBe(201);
    expect(objectMeta(created)).toBeUndefined();
    expect(one(await office.post('/kalender', kalenderDoc(''))).id).not.toBe(one(created).id);
  });

  it('takes client ids on every creation and refuses each a second time', async () => {
    const courseType = sandbox.store.all('course_type')[0]!.id;
    const course = one(
      await office.post('/courses', {
        data: {
          type: 'course',
          relationships: {
            course_type: { data: { type: 'course_type', id: courseType } },
            dates: { data: [{ type: 'course_date', id: 'new-1' }] },
          },
        },
        included: [
          {
            type: 'course_date',
            id: 'new-1',
            attributes: { from: '2027-03-06T09:00:00+01:00', to: '2027-03-06T16:30:00+01:00' },
          },
        ],
      }),
    );
    const anlass = sandbox.store.all('helferstunden_anlass')[0]!.id;
    const typ = sandbox.store
      .all('helferstunden_typ')
      .find((candidate) => candidate.attributes.aktiv === true)!.id;
    const cases: {
      path: string;
      type: ResourceType;
      data: Record<string, unknown>;
      included?: unknown[];
    }[] = [
      {
        path: '/personal',
        type: 'user',
        data: { attributes: { vorname: 'Ada', nachname: 'Neu' } },
      },
      { path: '/kalender', type: 'kalender', data: { attributes: { name: 'Einsatz' } } },
      {
        path: '/helferstunden',
        type: 'helferstunden',
        data: {
          attributes: { von: '2026-11-02T18:00:00+01:00', stunden: 2 },
          relationships: {
            anlass: { data: { type: 'helferstunden_anlass', id: anlass } },
            typ: { data: { type: 'helferstunden_typ', id: typ } },
          },
        },
      },
      {
        path: '/helferstunden/anlass',
        type: 'helferstunden_anlass',
        data: { attributes: { typ: 'sonstiges', beschreibung: 'Aufräumen' } },
      },
      {
        path: '/courses',
        type: 'course',
        data: {
          relationships: {
            course_type: { data: { type: 'course_type', id: courseType } },
            dates: { data: [{ type: 'course_date', id: 'new-1' }] },
          },
        },
        included: [
          {
            type: 'course_date',
            id: 'new-1',
            attributes: { from: '2027-04-06T09:00:00+02:00', to: '2027-04-06T16:30:00+02:00' },
          },
        ],
      },
      {
        path: `/courses/${course.id}/participations`,
        type: 'participation',
        data: { attributes: { first_name: 'Ida', last_name: 'Teil' } },
      },
      {
        path: `/courses/${course.id}/customfields`,
        type: 'customfield',
        data: { attributes: { name: 'Größe', field_type: 'text' } },
      },
    ];
    for (const { path, type, data, included } of cases) {
      const clientId = randomUUID();
      const body = {
        data: { type, id: clientId, ...data },
        ...(included ? { included } : {}),
      };
      const before = sandbox.store.count(type);
      const created = await office.post(path, body);
      expect(created.status, `${path}: ${created.text.slice(0, 300)}`).toBe(201);
      expect(one(created).id).not.toBe(clientId);
      expect(objectMeta(created)).toEqual({ client_id: clientId });
      const again = await office.post(path, body);
      expect(expectError(again, 409).code, path).toBe('already_exists');
      expect(errorMeta(again)).toEqual({ client_id: clientId, type, id: one(created).id });
      expect(sandbox.store.count(type), path).toBe(before + 1);
      // Another type may use the same UUID: ids are unique per type.
      if (type !== 'kalender')
        expect((await office.post('/kalender', kalenderDoc(clientId))).status).toBe(201);
    }
  });

  it('leaves PUT /personal/{identifier}/{value} as it was', async () => {
    const put = (id?: string) =>
      office.put(`/personal/mitgliednr/CID-1`, {
        data: {
          type: 'user',
          ...(id ? { id } : {}),
          attributes: { vorname: 'Put', nachname: 'Neu' },
        },
      });
    // data.id must name the matching person, a UUID is none: 409 conflict, not a client id.
    expect(expectError(await put(randomUUID()), 409).code).toBe('conflict');
    const answer = await put();
    expect(answer.status).toBe(201);
    expect(objectMeta(answer)).toBeUndefined();
  });

  it('remembers the client ids across a restart with the same data file', async () => {
    const clientId = randomUUID();
    one(await office.post('/kalender', kalenderDoc(clientId)));
    await sandbox.close();
    sandbox = await startSandbox({ clientIds: true, data: join(folder, 'state.sqlite') });
    office = ApiClient.as(sandbox, 'office');
    expect(expectError(await office.post('/kalender', kalenderDoc(clientId)), 409).code).toBe(
      'already_exists',
    );
  });
});

describe('client-generated ids and lost answers', () => {
  it('a POST whose answer was lost, sent again, is 409 with the id created first', async () => {
    const file = join(folder, 'lost.sqlite');
    const clientId = randomUUID();
    const lossy = await startSandbox({ clientIds: true, data: file, faults: 'lost=1' });
    try {
      await expect(
        fetch(`${lossy.baseUrl}/kalender`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${lossy.users[0]!.accessToken}`,
            'content-type': 'application/vnd.api+json',
          },
          body: JSON.stringify(kalenderDoc(clientId)),
        }),
      ).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lossy.requests).toMatchObject([{ method: 'POST', status: 201, fault: 'lost' }]);
    } finally {
      await lossy.close();
    }
    const sandbox = await startSandbox({ clientIds: true, data: file });
    try {
      const created = sandbox.store
        .all('kalender')
        .filter((kalender) => kalender.attributes.name === 'Outbox');
      expect(created).toHaveLength(1);
      const again = await ApiClient.as(sandbox, 'office').post('/kalender', kalenderDoc(clientId));
      expect(expectError(again, 409).code).toBe('already_exists');
      expect(errorMeta(again)).toMatchObject({ id: created[0]!.id });
      expect(
        sandbox.store.all('kalender').filter((k) => k.attributes.name === 'Outbox'),
      ).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
  });
});

function expectErrorAnswer(answer: Answer): Answer {
  expectError(answer, 409);
  return answer;
}
