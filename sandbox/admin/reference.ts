// Reference data as the service's web interface edits it:
//   PATCH /courses/types/:id   a course type
//   PATCH /uvts/:id            a UVT, or its mark as a favourite (which /uvts lists)
//   PATCH /companies/:id       a participant's company (its UVT: `uvt`, an id or null)
//   PATCH /addresses/:id       a course location
//   PATCH /clients/:id         a course client
// Each touches that one record (a new change time); the records that name it (courses,
// participations) are not touched, as on the service: a client that follows only those never
// learns of it.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Relationship, ResourceType } from '../data/store';
import { amount, emailOrEmpty, nonEmptyText } from '../http/schemas';
import { type AdminContext, change } from './context';
import { readBody } from './input';
import { putTouched, requireRecord } from './lookup';

const count = z.number().int().min(0);

const courseTypeEdit = z
  .strictObject({
    name: nonEmptyText,
    short_name: nonEmptyText,
    units: count,
    default_price: amount,
    validity_years: count,
  })
  .partial();

const uvtEdit = z
  .strictObject({ name: nonEmptyText, short_name: z.string(), favorite: z.boolean() })
  .partial();

const companyEdit = z
  .strictObject({
    name: nonEmptyText,
    street: z.string(),
    postal_code: z.string(),
    city: z.string(),
    uvt_member_number: z.string(),
    uvt: z.string().min(1).nullable(),
  })
  .partial();

const addressEdit = z
  .strictObject({
    description: z.string(),
    street: z.string(),
    street_name: z.string(),
    street_number: z.string(),
    address_addition: z.string(),
    postal_code: z.string(),
    city: z.string(),
    country: z.string(),
    contact_person_salutation: z.string(),
    contact_person_name: z.string(),
    phone: z.string(),
    mobile: z.string(),
    email: emailOrEmpty,
  })
  .partial();

const clientEdit = z
  .strictObject({
    name: nonEmptyText,
    customer_number: z.string(),
    street: z.string(),
    postal_code: z.string(),
    city: z.string(),
    contact_person: z.string(),
    email: emailOrEmpty,
    phone: z.string(),
  })
  .partial();

/** Merges the attributes given into the record and touches it. */
function editAttributes(
  admin: AdminContext,
  type: ResourceType,
  what: string,
  id: string,
  attributes: Record<string, unknown>,
  relationships: Record<string, Relationship> = {},
) {
  const record = requireRecord(admin.api, type, id, what);
  return change(admin, () =>
    putTouched(admin.api, {
      ...record,
      attributes: { ...record.attributes, ...attributes },
      relationships: { ...record.relationships, ...relationships },
    }),
  );
}

function editCompany(admin: AdminContext, id: string, body: unknown) {
  const { uvt, ...attributes } = readBody(companyEdit, body);
  if (uvt) requireRecord(admin.api, 'uvt', uvt, 'UVT');
  const relationships: Record<string, Relationship> =
    uvt === undefined ? {} : { uvt: uvt ? { type: 'uvt', id: uvt } : null };
  return editAttributes(admin, 'company', 'company', id, attributes, relationships);
}

export function registerReferenceChanges(scope: FastifyInstance, admin: AdminContext): void {
  const edits: [path: string, edit: (id: string, body: unknown) => ReturnType<typeof change>][] = [
    [
      '/courses/types/:id',
      (id, body) =>
        editAttributes(admin, 'course_type', 'course type', id, readBody(courseTypeEdit, body)),
    ],
    ['/uvts/:id', (id, body) => editAttributes(admin, 'uvt', 'UVT', id, readBody(uvtEdit, body))],
    ['/companies/:id', (id, body) => editCompany(admin, id, body)],
    [
      '/addresses/:id',
      (id, body) => editAttributes(admin, 'address', 'address', id, readBody(addressEdit, body)),
    ],
    [
      '/clients/:id',
      (id, body) => editAttributes(admin, 'client', 'client', id, readBody(clientEdit, body)),
    ],
  ];
  for (const [path, edit] of edits)
    scope.patch<{ Params: { id: string } }>(path, async (request) => {
      const { changed } = edit(request.params.id, request.body);
      return { changed };
    });
}
