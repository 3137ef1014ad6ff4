// What a record write answers besides its receipt: the record as the replica now holds it, in
// the shape the screen's read gives it, so the screen can show the result at once. Each type's
// read of one record shares its columns and their mapping with the screen's query (one place per
// fact) and is a lookup by its key from a statement kept per connection, without the list's
// totals, order or page: a write pays it every time. Null when that read no longer shows it.
import type { Kysely } from 'kysely';
import type { WrittenRecords } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { writtenInCourses } from './courses';
import { writtenInHours } from './hours';
import { writtenInMisc } from './misc';
import { writtenInOccasions } from './occasions';
import { writtenInPersonnel } from './personnel';
import type { WrittenReaders } from './record';

/** Every written record's reader, each declared beside its screen's query. */
const READERS = {
  ...writtenInPersonnel,
  ...writtenInCourses,
  ...writtenInHours,
  ...writtenInOccasions,
  ...writtenInMisc,
} satisfies Required<WrittenReaders>;

export async function writtenRecord<T extends keyof WrittenRecords>(
  db: Kysely<Database>,
  sqlite: Sqlite,
  type: T,
  id: string,
): Promise<WrittenRecords[T] | null> {
  const read = READERS[type] as NonNullable<WrittenReaders[T]>;
  return (await read(db, sqlite, id)) ?? null;
}
