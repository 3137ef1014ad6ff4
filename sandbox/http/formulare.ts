// Forms (tag "Formulare"): the forms offered for one object, named by a letter and an id:
// d service, t appointment, k course, m material, u person (id = user id). Both parameters are
// required. The answer is plain JSON (`application/json`), an array of `{ titel, aktion }`.
import type { FastifyInstance } from 'fastify';
import type { ResourceType } from '../data/store';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { badParameter, notFound } from './errors';
import { requireFormAccess } from './permissions';
import { Query } from './query';
import { sendBody } from './respond';

const OBJECT_TYPES = ['d', 't', 'k', 'm', 'u'] as const;
type ObjectType = (typeof OBJECT_TYPES)[number];
/** The stored type of each kind of object; material has no resource in the interface. */
const STORED_TYPE: Partial<Record<ObjectType, ResourceType>> = {
  d: 'dienst',
  t: 'termin',
  k: 'course',
  u: 'user',
};

function required(query: Query, name: string): string {
  const value = query.string(name);
  if (value === undefined || value === '')
    throw badParameter(name, `The query parameter "${name}" is required.`);
  return value;
}

export function registerFormulareRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/formulare/v1/liste', async (request, reply) => {
    const query = Query.read(request, ['typ', 'id']);
    const objectType = required(query, 'typ') as ObjectType;
    if (!OBJECT_TYPES.includes(objectType)) {
      throw badParameter('typ', `"${objectType}" is not one of ${OBJECT_TYPES.join(', ')}.`);
    }
    const objectId = required(query, 'id');
    requireFormAccess(principalOf(request), objectType, objectId);
    const storedType = STORED_TYPE[objectType];
    if (storedType && !context.store.get(storedType, objectId))
      throw notFound(`No object ${objectType} ${objectId}.`);
    const forms = context.store
      .all('formular')
      .filter(
        (form) =>
          form.attributes.objekt_typ === objectType && form.attributes.objekt_id === objectId,
      )
      .map((form) => ({ titel: form.attributes.titel, aktion: form.attributes.aktion }));
    return sendBody(reply, 200, JSON.stringify(forms), 'application/json');
  });
}
