// Volunteer-hour changes of the service's web interface:
//   PATCH /helferstunden/typen/:id      a type renamed, deactivated or activated again
//   PATCH /helferstunden/anlaesse/:id   an occasion edited
// Each changes that one record (a new change time); the entries of the type or occasion are not
// touched, as on the service: a client that follows only the entries never learns of it.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ResourceRef } from '../data/store';
import { date, nonEmptyText } from '../http/schemas';
import { type AdminContext, change } from './context';
import { readBody } from './input';
import { putTouched, requireRecord } from './lookup';

const typeEdit = z.strictObject({ bezeichnung: nonEmptyText, aktiv: z.boolean() }).partial();

const anlassEdit = z
  .strictObject({
    typ: z.enum(['dienst', 'termin', 'kurs', 'sonstiges']),
    beschreibung: nonEmptyText,
    datum: date,
  })
  .partial();

function editType(admin: AdminContext, id: string, body: unknown) {
  const input = readBody(typeEdit, body);
  const typ = requireRecord(admin.api, 'helferstunden_typ', id, 'volunteer-hour type');
  return change(admin, () =>
    putTouched(admin.api, { ...typ, attributes: { ...typ.attributes, ...input } }),
  );
}

function editAnlass(admin: AdminContext, id: string, body: unknown) {
  const input = readBody(anlassEdit, body);
  const anlass = requireRecord(admin.api, 'helferstunden_anlass', id, 'occasion');
  const attributes = { ...anlass.attributes, ...input };
  // Only occasions of a service or appointment refer to one, of their own kind: an occasion
  // that becomes another kind loses its reference, as the web form offers none for it.
  const referenz = (anlass.relationships.referenz ?? null) as ResourceRef | null;
  const keeps = referenz !== null && referenz.type === attributes.typ;
  return change(admin, () =>
    putTouched(admin.api, {
      ...anlass,
      attributes,
      relationships: { ...anlass.relationships, referenz: keeps ? referenz : null },
    }),
  );
}

export function registerHelferstundenChanges(scope: FastifyInstance, admin: AdminContext): void {
  scope.patch<{ Params: { id: string } }>('/helferstunden/typen/:id', async (request) => {
    const { changed } = editType(admin, request.params.id, request.body);
    return { changed };
  });

  scope.patch<{ Params: { id: string } }>('/helferstunden/anlaesse/:id', async (request) => {
    const { changed } = editAnlass(admin, request.params.id, request.body);
    return { changed };
  });
}
