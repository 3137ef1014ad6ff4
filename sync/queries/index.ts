// Answers the contract's queries from the replica alone, with no network.
import {
  isLocalId,
  serviceDay,
  type ParsedQueryArgs,
  type QueryName,
  type QueryResults,
} from '../contract';
import { serviceIdOf } from '../db/id-map';
import type { Replica } from '../db/open';
import {
  getCourse,
  listCourseDays,
  listCourses,
  listCourseTrainers,
  listParticipations,
} from './courses';
import { hoursSettings, hoursSummary, hoursTotals, hoursYears, listHours } from './hours';
import { hourSuggestions, listOccasions } from './occasions';
import {
  calendarIcalUrl,
  listCalendars,
  listAllForms,
  listFeedEvents,
  listForms,
  listHourTypes,
  listNotifications,
  countNotifications,
  referenceData,
  search,
} from './misc';
import { getClient, listClientParticipants, listClients, listCompanies } from './clients';
import { countByStatus, getPerson, listPersonnel, personnelFacets } from './personnel';
import { listDue } from './personnel-due';
import { currentAreaStatus, listQuarantine, syncStatus } from './status';

type Handlers = {
  [N in QueryName]: (args: ParsedQueryArgs<N>) => Promise<QueryResults[N]> | QueryResults[N];
};

/**
 * The handler of every query of the contract; the dispatcher (sync/dispatch) validates their
 * arguments. `now`: the clock of what depends on the day (hour suggestions).
 */
export function queryHandlers(replica: Replica, now: () => Date = () => new Date()): Handlers {
  const { db, sqlite } = replica;
  const selfId = () =>
    (sqlite.prepare("SELECT value FROM replica_meta WHERE key = 'self_id'").pluck().get() as
      string | undefined) ?? null;
  // A screen may still hold a record's temporary id after the service accepted it (a course
  // created offline, open while it is sent): its service id, as the outbox translates writes.
  const known = (id: string) => (isLocalId(id) ? (serviceIdOf(sqlite, id) ?? id) : id);
  const handlers: Handlers = {
    'personnel.list': (args) => listPersonnel(db, args),
    'personnel.get': (args) => getPerson(db, sqlite, args.id),
    'personnel.countByStatus': () => countByStatus(db),
    'personnel.facets': () => personnelFacets(db),
    'personnel.due': (args) => listDue(sqlite, { ...args, today: args.today ?? serviceDay(now()) }),
    'courses.list': (args) => listCourses(db, args, selfId()),
    'courses.days': (args) => listCourseDays(db, args, selfId()),
    'courses.get': (args) => getCourse(db, sqlite, known(args.id)),
    'courses.trainers': () => listCourseTrainers(db),
    'participations.list': (args) =>
      listParticipations(db, sqlite, { ...args, courseId: known(args.courseId) }),
    'hours.list': (args) => listHours(db, sqlite, args, selfId()),
    'hours.totals': (args) => hoursTotals(db, sqlite, args, selfId()),
    'hours.settings': () => hoursSettings(db),
    'hours.summary': (args) => hoursSummary(db, args, selfId()),
    'hours.types': (args) => listHourTypes(db, args),
    'hours.years': (args) => hoursYears(db, args, selfId()),
    'hours.occasions': (args) => listOccasions(db, args),
    'hours.suggestions': (args) => hourSuggestions(db, args, selfId(), now()),
    'calendars.list': () => listCalendars(db),
    'calendars.icalUrl': (args) => calendarIcalUrl(db, args.id),
    'notifications.list': (args) => listNotifications(db, args),
    'notifications.count': () => countNotifications(db),
    'reference.get': () => referenceData(db),
    'clients.list': (args) => listClients(db, args),
    'clients.participants': (args) => listClientParticipants(db, args),
    'clients.get': (args) => getClient(db, sqlite, args.id),
    'companies.list': (args) => listCompanies(db, args),
    'forms.list': (args) => listForms(db, args),
    'forms.all': () => listAllForms(db),
    'feed.events': (args) => listFeedEvents(db, args),
    search: (args) => search(db, args),
    'sync.status': (args) => syncStatus(sqlite, args.freshness),
    'sync.quarantine': (args) => listQuarantine(sqlite, args),
    'sync.areas': () => currentAreaStatus(sqlite),
  };
  return handlers;
}
