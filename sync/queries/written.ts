// What a record write answers besides its receipt: the record as the replica now holds it, read
// by the same query the screen reads it with (narrowed to its id), so the screen can show the
// result at once in the shape it already knows. Null when that read no longer shows the record.
// Each query file declares the readers of the records its reads show, beside those reads.
import type { Kysely } from 'kysely';
import type { WrittenRecords } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { writtenCourses } from './courses';
import { writtenHours } from './hours';
import { writtenMisc } from './misc';
import { writtenPersonnel } from './personnel';

/** How a query file reads the written records of types `T`, by id. */
export type WrittenReaders<T extends keyof WrittenRecords> = {
  [K in T]: (
    db: Kysely<Database>,
    sqlite: Sqlite,
    id: string,
  ) => Promise<WrittenRecords[K] | null | undefined>;
};

const READERS: WrittenReaders<keyof WrittenRecords> = {
  ...writtenPersonnel,
  ...writtenMisc,
  ...writtenHours,
  ...writtenCourses,
};

export async function writtenRecord<T extends keyof WrittenRecords>(
  db: Kysely<Database>,
  sqlite: Sqlite,
  type: T,
  id: string,
): Promise<WrittenRecords[T] | null> {
  return ((await READERS[type](db, sqlite, id)) ?? null) as WrittenRecords[T] | null;
}
