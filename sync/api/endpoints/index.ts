// The service's endpoints, one file per area of the interface (as the contract's areas), each
// with its resources' schemas and its operations: here every read operation in one interface
// (the client's), and every area's resource schemas by their JSON:API `type`, so a document's
// `included` can be checked item by item.
import type { z } from 'zod';
import type { ApiCore } from '../core';
import * as calendars from './calendars';
import * as clients from './clients';
import * as courses from './courses';
import * as hours from './hours';
import * as messages from './messages';
import * as organisation from './organisation';
import * as personnel from './personnel';

export const resourceSchemas = {
  ...personnel.personnelSchemas,
  ...organisation.organisationSchemas,
  ...calendars.calendarsSchemas,
  ...hours.hoursSchemas,
  ...messages.messagesSchemas,
  ...courses.coursesSchemas,
} as const;

export type ResourceType = keyof typeof resourceSchemas;
export type ResourceOfType<T extends ResourceType> = z.infer<(typeof resourceSchemas)[T]>;
export type KnownResource = ResourceOfType<ResourceType>;

export function isResourceType(type: string): type is ResourceType {
  return Object.hasOwn(resourceSchemas, type);
}

export type { Relationship, Resource } from '../schemas/common';
export type * from './calendars';
export type * from './clients';
export type * from './courses';
export type * from './hours';
export type * from './include';
export type * from './messages';
export type * from './organisation';
export type * from './personnel';

/** Every read operation of the interface. */
export interface ServiceApi
  extends
    personnel.PersonalApi,
    organisation.OrganisationApi,
    calendars.KalenderApi,
    hours.HelferstundenApi,
    messages.MessagesApi,
    courses.CoursesApi,
    clients.ClientsApi {}

/** The read operations over `core`; the OAuth base and the versioned paths' base as the client has them. */
export function serviceApi(core: ApiCore, authBase: URL, versionedBase: URL): ServiceApi {
  return {
    ...personnel.personalApi(core),
    ...organisation.organisationApi(core, authBase),
    ...calendars.kalenderApi(core),
    ...hours.helferstundenApi(core),
    ...messages.messagesApi(core, versionedBase),
    ...courses.coursesApi(core),
    ...clients.clientsApi(core),
  };
}
