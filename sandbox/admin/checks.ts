// A person's checks (`ueberpruefung`) and honours (`ehrung`): the API only reads them, the
// service's web interface records them.
//   POST   /personal/:id/ueberpruefungen, /personal/:id/ehrungen  { attributes }  → { id, changed }
//   PATCH  /ueberpruefungen/:id, /ehrungen/:id                     { attributes }  (merged)
//   DELETE /ueberpruefungen/:id, /ehrungen/:id
// A check is a record of its own with its own change time (`updated_at`, and what
// `filter[updated_since]` of GET /personal/{id}/ueberpruefungen selects by); the person is not
// touched: the interface derives nothing of the person from them (unlike trainings, which the
// person embeds), so on the service the person's change time stays.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ResourceType } from '../data/store';
import { changeTimeOf, todayOf } from '../http/context';
import { date, dateOrEmpty, nonEmptyText } from '../http/schemas';
import { type AdminContext, change } from './context';
import { readBody } from './input';
import { putTouched, requireRecord } from './lookup';

interface Kind {
  type: ResourceType;
  path: string;
  what: string;
  attributes: z.ZodObject;
  /** The attributes of a new record before the input, as the web form's defaults. */
  defaults(admin: AdminContext): Record<string, unknown>;
}

const KINDS: readonly Kind[] = [
  {
    type: 'ueberpruefung',
    path: 'ueberpruefungen',
    what: 'check',
    attributes: z.strictObject({
      bezeichnung: nonEmptyText,
      pruefergebnis: z.strictObject({ bestanden: z.boolean(), einschraenkungen: z.string() }),
      letzte_pruefung: dateOrEmpty,
      naechste_pruefung: dateOrEmpty,
    }),
    defaults: (admin) => ({
      pruefergebnis: { bestanden: true, einschraenkungen: '' },
      letzte_pruefung: '',
      naechste_pruefung: '',
      updated_at: changeTimeOf(admin.api),
    }),
  },
  {
    type: 'ehrung',
    path: 'ehrungen',
    what: 'honour',
    attributes: z.strictObject({
      bezeichnung: nonEmptyText,
      datum: date,
      jahre: z.number().int().min(0).max(100),
      stufe: z.enum(['bronze', 'silber', 'gold', '']),
    }),
    defaults: (admin) => ({ datum: todayOf(admin.api), jahre: 0, stufe: '' }),
  },
];

function registerKind(scope: FastifyInstance, admin: AdminContext, kind: Kind): void {
  const { api } = admin;
  const create = z.strictObject({
    attributes: kind.attributes.partial().required({ bezeichnung: true }),
  });
  const edit = z.strictObject({ attributes: kind.attributes.partial() });

  scope.post<{ Params: { id: string } }>(`/personal/:id/${kind.path}`, async (request, reply) => {
    const { attributes } = readBody(create, request.body);
    const person = requireRecord(api, 'user', request.params.id, 'person');
    const { result, changed } = change(admin, () =>
      api.store.put({
        type: kind.type,
        id: api.store.nextId(kind.type),
        attributes: { ...kind.defaults(admin), ...attributes },
        relationships: { user: { type: 'user', id: person.id } },
      }),
    );
    return reply.code(201).send({ id: result.id, changed });
  });

  scope.patch<{ Params: { id: string } }>(`/${kind.path}/:id`, async (request) => {
    const { attributes } = readBody(edit, request.body);
    const record = requireRecord(api, kind.type, request.params.id, kind.what);
    const { changed } = change(admin, () =>
      putTouched(api, { ...record, attributes: { ...record.attributes, ...attributes } }),
    );
    return { changed };
  });

  scope.delete<{ Params: { id: string } }>(`/${kind.path}/:id`, async (request) => {
    const record = requireRecord(api, kind.type, request.params.id, kind.what);
    const { changed } = change(admin, () => api.store.remove(kind.type, record.id));
    return { changed };
  });
}

export function registerCheckChanges(scope: FastifyInstance, admin: AdminContext): void {
  for (const kind of KINDS) registerKind(scope, admin, kind);
}
