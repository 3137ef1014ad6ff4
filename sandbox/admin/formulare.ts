// Forms set up in the service's web interface for an object (a service d, appointment t,
// course k, material m or person u; see sandbox/http/formulare.ts):
//   POST   /formulare       { objekt_typ, objekt_id, titel, aktion? }  → { id, changed }
//   DELETE /formulare/:id
// Stored as the demo data stores them (type 'formular'); a form has no change time of its own
// that the interface shows, so a client learns of it only by reading the object's forms again.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FormularAttributes } from '../data/model';
import type { ResourceType } from '../data/store';
import { nonEmptyText } from '../http/schemas';
import { type AdminContext, change } from './context';
import { readBody } from './input';
import { requireRecord } from './lookup';

/** The stored type of each object letter; material has no records. */
const OBJECT_TYPES: Record<FormularAttributes['objekt_typ'], ResourceType | undefined> = {
  d: 'dienst',
  t: 'termin',
  k: 'course',
  m: undefined,
  u: 'user',
};

/** Where the demo data's forms link to (sandbox/data/demo/inbox.ts). */
const FORM_BASE = 'https://formulare.drk-musterstadt.example';

const newForm = z.strictObject({
  objekt_typ: z.enum(['d', 't', 'k', 'm', 'u']),
  objekt_id: z.string().min(1),
  titel: nonEmptyText,
  aktion: z
    .strictObject({ typ: z.literal('link'), url: z.url(), methode: z.literal('GET') })
    .optional(),
});

function addForm(admin: AdminContext, body: unknown) {
  const { api } = admin;
  const input = readBody(newForm, body);
  const storedType = OBJECT_TYPES[input.objekt_typ];
  if (storedType) requireRecord(api, storedType, input.objekt_id);
  const attributes: FormularAttributes = {
    titel: input.titel,
    aktion: input.aktion ?? {
      typ: 'link',
      url: `${FORM_BASE}/formular?typ=${input.objekt_typ}&id=${encodeURIComponent(input.objekt_id)}`,
      methode: 'GET',
    },
    objekt_typ: input.objekt_typ,
    objekt_id: input.objekt_id,
  };
  return change(admin, () =>
    api.store.put({
      type: 'formular',
      id: api.store.nextId('formular'),
      attributes: { ...attributes },
      relationships: {},
    }),
  );
}

export function registerFormChanges(scope: FastifyInstance, admin: AdminContext): void {
  scope.post('/formulare', async (request, reply) => {
    const { result, changed } = addForm(admin, request.body);
    return reply.code(201).send({ id: result.id, changed });
  });

  scope.delete<{ Params: { id: string } }>('/formulare/:id', async (request) => {
    const form = requireRecord(admin.api, 'formular', request.params.id, 'form');
    const { changed } = change(admin, () => admin.api.store.remove('formular', form.id));
    return { changed };
  });
}
