// The service's endpoints, one file per area of the interface, each with its resources' schemas
// and its operations: here every read operation in one interface (the client's), and every
// resource schema by its JSON:API `type`, so a document's `included` can be checked item by item.
import type { z } from 'zod';
import type { ApiCore } from '../core';
import { clientsApi, type ClientsApi } from './clients';
import {
  coursesApi,
  type CoursesApi,
  addressResource,
  cancellationResource,
  clientResource,
  companyResource,
  courseDateResource,
  courseResource,
  courseTypeResource,
  customFieldResource,
  participationResource,
  uvtResource,
} from './courses';
import {
  helferstundenApi,
  type HelferstundenApi,
  dienstResource,
  helferstundenAnlassResource,
  helferstundenEinstellungenResource,
  helferstundenResource,
  helferstundenTypResource,
  terminResource,
} from './helferstunden';
import { kalenderApi, kalenderResource, type KalenderApi } from './kalender';
import {
  benachrichtigungResource,
  messagesApi,
  steuersatzResource,
  type MessagesApi,
} from './messages';
import { orgaResource, organisationApi, type OrganisationApi } from './organisation';
import {
  personalApi,
  type PersonalApi,
  ausbildungResource,
  ehrungResource,
  organisationResource,
  ueberpruefungResource,
  userResource,
} from './personal';

export const resourceSchemas = {
  user: userResource,
  organisation: organisationResource,
  ausbildung: ausbildungResource,
  ueberpruefung: ueberpruefungResource,
  ehrung: ehrungResource,
  orga: orgaResource,
  kalender: kalenderResource,
  helferstunden: helferstundenResource,
  helferstunden_anlass: helferstundenAnlassResource,
  helferstunden_typ: helferstundenTypResource,
  helferstunden_einstellungen: helferstundenEinstellungenResource,
  dienst: dienstResource,
  termin: terminResource,
  benachrichtigung: benachrichtigungResource,
  steuersatz: steuersatzResource,
  course: courseResource,
  course_type: courseTypeResource,
  course_date: courseDateResource,
  address: addressResource,
  participation: participationResource,
  cancellation: cancellationResource,
  company: companyResource,
  uvt: uvtResource,
  client: clientResource,
  customfield: customFieldResource,
} as const;

export type ResourceType = keyof typeof resourceSchemas;
export type ResourceOfType<T extends ResourceType> = z.infer<(typeof resourceSchemas)[T]>;
export type KnownResource = ResourceOfType<ResourceType>;

export function isResourceType(type: string): type is ResourceType {
  return Object.hasOwn(resourceSchemas, type);
}

export type { Relationship, Resource } from '../schemas/common';
export type * from './clients';
export type * from './courses';
export type * from './helferstunden';
export type * from './include';
export type * from './kalender';
export type * from './messages';
export type * from './organisation';
export type * from './personal';

/** Every read operation of the interface. */
export interface ServiceApi
  extends
    PersonalApi,
    OrganisationApi,
    KalenderApi,
    HelferstundenApi,
    MessagesApi,
    CoursesApi,
    ClientsApi {}

/** The read operations over `core`; the OAuth base and the versioned paths' base as the client has them. */
export function serviceApi(core: ApiCore, authBase: URL, versionedBase: URL): ServiceApi {
  return {
    ...personalApi(core),
    ...organisationApi(core, authBase),
    ...kalenderApi(core),
    ...helferstundenApi(core),
    ...messagesApi(core, versionedBase),
    ...coursesApi(core),
    ...clientsApi(core),
  };
}
