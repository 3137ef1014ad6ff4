// The role rules of permissions.ts, operation by operation: what office staff, trainers and
// members may do, and the 403 for everything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import { ApiClient, expectError } from './test-client';

let sandbox: RunningSandbox;
const clients: Record<'office' | 'trainer' | 'member', ApiClient> = {} as never;
const ids = { office: '', trainer: '', member: '' };
let foreignCourse = '';
let ownCourse = '';
let somebody = '';

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 21 });
  for (const role of ['office', 'trainer', 'member'] as const) {
    clients[role] = ApiClient.as(sandbox, role);
    ids[role] = sandbox.users.find((user) => user.role === role)!.id;
  }
  ownCourse = sandbox.store.related('course', 'trainers', ids.trainer)[0]!.id;
  foreignCourse = sandbox.store
    .all('course')
    .find(
      (course) =>
        !(course.relationships.trainers as { id: string }[]).some((t) => t.id === ids.trainer),
    )!.id;
  somebody = sandbox.store.all('user').find((user) => !Object.values(ids).includes(user.id))!.id;
});
afterAll(() => sandbox.close());

/** Paths name the ids they need in braces; they are filled in once the sandbox runs. */
type Case = [
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  allowed: readonly ('office' | 'trainer' | 'member')[],
];

function fill(path: string): string {
  const values: Record<string, string> = {
    somebody,
    ownCourse,
    foreignCourse,
    officeId: ids.office,
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? name);
}

const userDoc = { data: { type: 'user', attributes: { vorname: 'R', nachname: 'Olle' } } };

const CASES: Case[] = [
  ['GET', '/personal/selbst', ['office', 'trainer', 'member']],
  ['GET', '/personal', ['office']],
  ['POST', '/personal', ['office']],
  ['PUT', '/personal/mitgliednr/R-1', ['office']],
  ['GET', '/personal/{somebody}/ausbildungen', ['office']],
  ['GET', '/personal/{somebody}/ueberpruefungen', ['office']],
  ['GET', '/personal/{somebody}/ehrungen', ['office']],
  ['GET', '/organisation/selbst/stammdaten', ['office', 'trainer', 'member']],
  ['GET', '/kalender', ['office', 'trainer', 'member']],
  ['GET', '/benachrichtigungen', ['office', 'trainer', 'member']],
  ['GET', '/helferstunden', ['office', 'trainer', 'member']],
  ['GET', '/helferstunden?filter[eigene]=false', ['office']],
  ['GET', '/helferstunden/einstellungen/selbst', ['office', 'trainer', 'member']],
  ['GET', '/steuersaetze', ['office', 'trainer']],
  ['GET', '/courses', ['office', 'trainer']],
  ['GET', '/courses?filter[trainer_user_id]={officeId}', ['office']],
  ['GET', '/courses/types', ['office', 'trainer']],
  ['GET', '/courses/{ownCourse}', ['office', 'trainer']],
  ['GET', '/courses/{foreignCourse}', ['office']],
  ['GET', '/courses/{ownCourse}/participations', ['office', 'trainer']],
  ['GET', '/courses/{foreignCourse}/participations', ['office']],
  ['GET', '/courses/{ownCourse}/customfields', ['office', 'trainer']],
  ['GET', '/courses/{foreignCourse}/customfields', ['office']],
  ['GET', '/clients', ['office']],
  ['GET', '/uvts', ['office', 'trainer']],
  ['GET', '/formulare/v1/liste?typ=m&id=1', ['office', 'trainer']],
];

describe('role rules', () => {
  for (const [method, path, allowed] of CASES) {
    it(`${method} ${path}: ${allowed.join(', ')}`, async () => {
      for (const role of ['office', 'trainer', 'member'] as const) {
        const body = method === 'POST' || method === 'PUT' ? userDoc : undefined;
        const answer = await clients[role].request(method, fill(path), body);
        if (allowed.includes(role))
          expect(answer.status, `${role}: ${answer.text.slice(0, 200)}`).toBeLessThan(300);
        // A role's token lacks the scopes of what the role may not use, so most refusals
        // are a missing scope; where the scope is there, the role rule refuses.
        else
          expect(['forbidden', 'insufficient_scope'], role).toContain(
            expectError(answer, 403).code,
          );
      }
    });
  }

  it('lets only office staff delete trainings and change people and occasions', async () => {
    const training = sandbox.store.related('ausbildung', 'user', ids.member)[0]!;
    for (const role of ['trainer', 'member'] as const) {
      expectError(
        await clients[role].delete(`/personal/${ids.member}/ausbildungen/${training.id}`),
        403,
      );
      expectError(
        await clients[role].patch(`/personal/${ids[role]}`, {
          data: { type: 'user', id: ids[role], attributes: { beruf: 'x' } },
        }),
        403,
      );
      const anlass = sandbox.store.all('helferstunden_anlass')[0]!;
      expectError(
        await clients[role].patch(`/helferstunden/anlass/${anlass.id}`, {
          data: { type: 'helferstunden_anlass', id: anlass.id, attributes: { beschreibung: 'x' } },
        }),
        403,
      );
    }
  });

  it('keeps people who may not enter hours from entering them', async () => {
    const newEntry = (user?: string) => ({
      data: {
        type: 'helferstunden',
        attributes: { von: '2026-11-10T10:00:00+01:00', stunden: 1 },
        relationships: {
          anlass: {
            data: {
              type: 'helferstunden_anlass',
              id: sandbox.store.all('helferstunden_anlass')[0]!.id,
            },
          },
          typ: { data: { type: 'helferstunden_typ', id: '1' } },
          ...(user ? { user: { data: { type: 'user', id: user } } } : {}),
        },
      },
    });
    const setStatus = (status: string) =>
      clients.office.patch(`/personal/${ids.member}`, {
        data: { type: 'user', id: ids.member, attributes: { status } },
      });
    expect((await setStatus('eingeschraenkt')).status).toBe(200);
    expectError(await clients.member.post('/helferstunden', newEntry()), 403);
    expect((await setStatus('gesperrt')).status).toBe(200);
    expect(
      expectError(await clients.office.post('/helferstunden', newEntry(ids.member)), 422).source
        ?.pointer,
    ).toBe('/data/relationships/user/data');
    expect((await setStatus('aktiv')).status).toBe(200);
    expect((await clients.member.post('/helferstunden', newEntry())).status).toBe(201);
  });
});
