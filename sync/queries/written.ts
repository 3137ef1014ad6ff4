// What a record write answers besides its receipt: the record as the replica now holds it, in
// the shape the screen's read gives it, so the screen can show the result at once. Each type's
// read of one record shares its columns and their mapping with the screen's query (one place per
// fact) and is a lookup by its key from a statement kept per connection, without the list's
// totals, order or page: a write pays it every time. Null when that read no longer shows it.
import type { Kysely } from 'kysely';
import type { WrittenRecords } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { customfieldOf, getCourse, participationOf } from './courses';
import { hoursItemOf, occasionOf } from './hours';
import { calendarOf, notificationOf } from './misc';
import { getPerson, trainingOf } from './personnel';

type Readers = {
  [T in keyof WrittenRecords]: (
    id: string,
  ) => Promise<WrittenRecords[T] | null | undefined> | WrittenRecords[T] | null | undefined;
};

export async function writtenRecord<T extends keyof WrittenRecords>(
  db: Kysely<Database>,
  sqlite: Sqlite,
  type: T,
  id: string,
): Promise<WrittenRecords[T] | null> {
  const readers: Readers = {
    user: (only) => getPerson(db, sqlite, only),
    ausbildung: (only) => trainingOf(db, sqlite, only),
    kalender: (only) => calendarOf(db, sqlite, only),
    helferstunden: (only) => hoursItemOf(db, sqlite, only),
    helferstunden_anlass: (only) => occasionOf(db, sqlite, only),
    benachrichtigung: (only) => notificationOf(db, sqlite, only),
    course: (only) => getCourse(db, sqlite, only),
    participation: (only) => participationOf(db, sqlite, only),
    customfield: (only) => customfieldOf(db, sqlite, only),
  };
  return ((await readers[type](id)) ?? null) as WrittenRecords[T] | null;
}
