// The sync's collections in words for people, in one place for every line the CLI prints.
import { COURSE_MODULE } from '../pull/engine';

const LABELS: Record<string, string> = {
  outbox: 'local writes sent',
  userinfo: 'own account',
  orga: 'organisation',
  personal: 'people',
  ausbildungen: 'trainings',
  person_details: 'checks and honours',
  ueberpruefungen: 'checks',
  ehrungen: 'honours',
  kalender: 'calendars',
  benachrichtigungen: 'notifications',
  helferstunden_einstellungen: 'hour settings',
  steuersaetze: 'tax rates',
  course_types: 'course types',
  uvts: 'accident insurers',
  clients: 'clients',
  courses: 'courses',
  participations: 'participations',
  customfields: 'custom fields',
  client_participants: 'client participants',
  formulare: 'forms',
  helferstunden: 'volunteer hours',
  helferstunden_history: 'volunteer hours, history',
};

/** The words for a collection; its own name when there are none yet. */
export function collectionLabel(collection: string): string {
  return LABELS[collection] ?? collection.replace(/_/g, ' ');
}

/** Collections that make up the course module: an unlicensed module is said once, not per collection. */
export const COURSE_MODULE_COLLECTIONS: ReadonlySet<string> = new Set(COURSE_MODULE);
