// Changes to people that the service's web interface makes:
//   PATCH /personal/:id         { attributes }  an edit in the web form (the API's user input)
//   POST  /personal/:id/merge   { into }        two records of one person merged into `into`
// A merge re-points everything that points at the person (`related` over every relationship
// that targets people, plus notifications, whose id names the person, and the person's forms),
// each of those records changed; the person and their account and hour settings are removed;
// `into` changes too (it takes over the person's trainings in its embedded `ausbildungen`).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { feedPath } from '../data/generate';
import {
  DOCUMENTED_RELATIONSHIPS,
  type EmbeddedAusbildung,
  type UserAttributes,
} from '../data/model';
import type { AccountAttributes, Relationship, ResourceRef, ResourceType } from '../data/store';
import { applyUserInput, userInput } from '../http/personal-input';
import { type AdminContext, change } from './context';
import { badRequest, conflict } from './errors';
import { readBody } from './input';
import { putTouched, requireRecord } from './lookup';

/** Every (type, relationship) that may point at a person. */
const POINTING_AT_PEOPLE: readonly (readonly [ResourceType, string])[] = [
  ...Object.entries(DOCUMENTED_RELATIONSHIPS).flatMap(([type, relationships]) =>
    Object.entries(relationships)
      .filter(([, targets]) => targets.includes('user'))
      .map(([name]) => [type as ResourceType, name] as const),
  ),
  // With --client-ids, the record a client id created may be a person.
  ['client_generated_id', 'resource'],
];

const personEdit = z.strictObject({ attributes: userInput });
const merge = z.strictObject({ into: z.string().min(1) });

function repoint(relationship: Relationship | undefined, from: string, into: ResourceRef) {
  if (Array.isArray(relationship)) {
    const refs = relationship.map((ref) => (ref.type === 'user' && ref.id === from ? into : ref));
    return refs.filter(
      (ref, index) => refs.findIndex((o) => o.type === ref.type && o.id === ref.id) === index,
    );
  }
  return relationship && relationship.type === 'user' && relationship.id === from
    ? into
    : (relationship ?? null);
}

function editPerson(admin: AdminContext, id: string, body: unknown) {
  const { api } = admin;
  const { attributes: input } = readBody(personEdit, body);
  const person = requireRecord(api, 'user', id, 'person');
  if (input.mitgliednr) {
    const holder = api.store
      .all('user')
      .find((user) => user.attributes.mitgliednr === input.mitgliednr && user.id !== person.id);
    if (holder)
      throw conflict(`Member number "${input.mitgliednr}" already belongs to person ${holder.id}.`);
  }
  const attributes = applyUserInput(person.attributes as unknown as UserAttributes, input);
  return change(admin, () => api.store.put({ ...person, attributes: { ...attributes } }));
}

function mergePerson(admin: AdminContext, fromId: string, body: unknown) {
  const { api } = admin;
  const { store } = api;
  const { into: intoId } = readBody(merge, body);
  if (intoId === fromId) throw badRequest('A person cannot be merged into themselves.');
  const from = requireRecord(api, 'user', fromId, 'person');
  const into = requireRecord(api, 'user', intoId, 'person');
  const intoRef: ResourceRef = { type: 'user', id: into.id };
  const intoAccount = store.get('account', into.id)?.attributes as AccountAttributes | undefined;
  return change(admin, () => {
    const trainings: EmbeddedAusbildung[] = [];
    for (const [type, name] of POINTING_AT_PEOPLE) {
      for (const record of store.related(type, name, from.id)) {
        let attributes = record.attributes;
        // A calendar carries its owner's private feed.
        if (type === 'kalender' && intoAccount)
          attributes = { ...attributes, ical_url: feedPath(intoAccount.feedHash) };
        const moved = putTouched(api, {
          ...record,
          attributes,
          relationships: {
            ...record.relationships,
            [name]: repoint(record.relationships[name], from.id, intoRef),
          },
        });
        if (type === 'ausbildung')
          trainings.push({ id: moved.id, ...moved.attributes } as unknown as EmbeddedAusbildung);
      }
    }
    moveNotifications(admin, from.id, into.id);
    for (const form of store.all('formular')) {
      if (form.attributes.objekt_typ === 'u' && form.attributes.objekt_id === from.id)
        store.put({ ...form, attributes: { ...form.attributes, objekt_id: into.id } });
    }
    store.remove('helferstunden_einstellungen', from.id);
    store.remove('account', from.id);
    store.remove('user', from.id);
    const embedded = (into.attributes.ausbildungen ?? []) as EmbeddedAusbildung[];
    store.put({
      ...into,
      attributes: {
        ...into.attributes,
        ausbildungen: [
          ...embedded.filter((entry) => !trainings.some((moved) => moved.id === entry.id)),
          ...trainings,
        ],
      },
    });
  });
}

/** Notifications have the recipient in their id, `<n>-<userId>`: the same one for `into`. */
function moveNotifications(admin: AdminContext, fromId: string, intoId: string): void {
  const { store } = admin.api;
  const suffix = `-${fromId}`;
  const mine = store.all('benachrichtigung').filter((n) => n.id.endsWith(suffix));
  for (const notification of mine) {
    store.remove('benachrichtigung', notification.id);
    const id = `${notification.id.slice(0, -suffix.length)}-${intoId}`;
    // When `into` got the same notification, it keeps its own.
    if (!store.get('benachrichtigung', id)) store.put({ ...notification, id });
  }
}

export function registerPersonChanges(scope: FastifyInstance, admin: AdminContext): void {
  scope.patch<{ Params: { id: string } }>('/personal/:id', async (request) => {
    const { changed } = editPerson(admin, request.params.id, request.body);
    return { changed };
  });

  scope.post<{ Params: { id: string } }>('/personal/:id/merge', async (request) => {
    const { changed } = mergePerson(admin, request.params.id, request.body);
    return { changed };
  });
}
