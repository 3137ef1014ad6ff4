// Answers the contract's queries from the replica alone, with no network.
import {
  queries,
  type ParsedQueryArgs,
  type QueryArgs,
  type QueryName,
  type QueryResults,
} from '../contract';
import type { Replica } from '../db/open';
import type { SyncStateTable } from '../db/schema';
import { getCourse, listCourses, listParticipations } from './courses';
import { hoursSummary, listHours } from './hours';
import {
  listCalendars,
  listClientParticipants,
  listClients,
  listForms,
  listHourTypes,
  listNotifications,
  referenceData,
  search,
} from './misc';
import { countByStatus, getPerson, listPersonnel } from './personnel';
import { areaStatus, listQuarantine, syncStatus } from './status';

export class InvalidQueryError extends Error {
  override name = 'InvalidQueryError';
  constructor(
    readonly query: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(
      `Invalid arguments for ${query}: ${issues.map((i) => `${i.path || '(arguments)'}: ${i.message}`).join('; ')}`,
    );
  }
}

type Handlers = {
  [N in QueryName]: (args: ParsedQueryArgs<N>) => Promise<QueryResults[N]> | QueryResults[N];
};

export interface QueryService {
  /** Validates the arguments with the contract's schema, then answers from the replica. */
  query<N extends QueryName>(name: N, args: QueryArgs<N>): Promise<QueryResults[N]>;
}

export function isQueryName(name: string): name is QueryName {
  return Object.hasOwn(queries, name);
}

export function createQueryService(replica: Replica): QueryService {
  const { db, sqlite } = replica;
  const selfId = () =>
    (sqlite.prepare("SELECT value FROM replica_meta WHERE key = 'self_id'").pluck().get() as
      string | undefined) ?? null;
  const handlers: Handlers = {
    'personnel.list': (args) => listPersonnel(db, args),
    'personnel.get': (args) => getPerson(db, args.id),
    'personnel.countByStatus': () => countByStatus(db),
    'courses.list': (args) => listCourses(db, args, selfId()),
    'courses.get': (args) => getCourse(db, args.id),
    'participations.list': (args) => listParticipations(db, args),
    'hours.list': (args) => listHours(db, args, selfId()),
    'hours.summary': (args) => hoursSummary(db, args, selfId()),
    'hours.types': (args) => listHourTypes(db, args),
    'calendars.list': () => listCalendars(db),
    'notifications.list': (args) => listNotifications(db, args),
    'reference.get': () => referenceData(db),
    'clients.list': (args) => listClients(db, args),
    'clients.participants': (args) => listClientParticipants(db, args),
    'forms.list': (args) => listForms(db, args),
    search: (args) => search(db, args),
    'sync.status': () => syncStatus(sqlite),
    'sync.quarantine': (args) => listQuarantine(sqlite, args),
    'sync.areas': () =>
      areaStatus(sqlite.prepare('SELECT * FROM sync_state').all() as SyncStateTable[]),
  };
  return {
    async query(name, args) {
      if (!isQueryName(name))
        throw new InvalidQueryError(String(name), [{ path: '', message: 'unknown query' }]);
      const parsed = queries[name].safeParse(args ?? {});
      if (!parsed.success) {
        throw new InvalidQueryError(
          name,
          parsed.error.issues.map((issue) => ({
            path: issue.path.join('.'),
            message: issue.message,
          })),
        );
      }
      const handler = handlers[name] as (
        a: unknown,
      ) => Promise<QueryResults[typeof name]> | QueryResults[typeof name];
      return handler(parsed.data);
    },
  };
}
