// What a record write answers besides its receipt: the record as the replica now holds it, read
// by the same query the screen reads it with (narrowed to its id), so the screen can show the
// result at once in the shape it already knows. Null when that read no longer shows the record.
import type { Kysely } from 'kysely';
import type { WrittenRecords } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { courseCustomfields, getCourse, listParticipations } from './courses';
import { listHours, listOccasions } from './hours';
import { listCalendars, listNotifications } from './misc';
import { getPerson, trainingsOf } from './personnel';

type Readers = {
  [T in keyof WrittenRecords]: (id: string) => Promise<WrittenRecords[T] | null | undefined>;
};

export async function writtenRecord<T extends keyof WrittenRecords>(
  db: Kysely<Database>,
  sqlite: Sqlite,
  type: T,
  id: string,
): Promise<WrittenRecords[T] | null> {
  const first = async <R>(rows: Promise<R[]>) => (await rows)[0];
  const readers: Readers = {
    user: (only) => getPerson(db, sqlite, only),
    ausbildung: (only) => first(trainingsOf(db, { only })),
    kalender: (only) => first(listCalendars(db, only)),
    helferstunden: async (only) =>
      (await listHours(db, { sort: 'von', limit: 1, offset: 0 }, null, only)).items[0],
    helferstunden_anlass: (only) => first(listOccasions(db, { limit: 1 }, only)),
    benachrichtigung: (only) => first(listNotifications(db, { unreadOnly: false }, only)),
    course: (only) => getCourse(db, sqlite, only),
    participation: (only) =>
      first(listParticipations(db, sqlite, { only, includeCancelled: true })),
    customfield: (only) => first(courseCustomfields(db, { only })),
  };
  return ((await readers[type](id)) ?? null) as WrittenRecords[T] | null;
}
