// Every resource schema by its JSON:API `type`, so a document's `included` can be checked item by item.
import type { z } from 'zod';
import {
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
  dienstResource,
  helferstundenAnlassResource,
  helferstundenEinstellungenResource,
  helferstundenResource,
  helferstundenTypResource,
  terminResource,
} from './helferstunden';
import { kalenderResource } from './kalender';
import { benachrichtigungResource, steuersatzResource } from './messages';
import { orgaResource } from './organisation';
import {
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

export type { Relationship, Resource } from './common';
