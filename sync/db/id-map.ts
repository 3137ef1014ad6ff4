// The service ids of records created here: a temporary id (`local-…`) the service has answered is
// kept in id_map, so a screen or a queued write that still names the temporary id reaches the
// record under its service id.
import type { Sqlite } from './sqlite';
import { prepared } from './statements';

/** The service id a temporary id was given; undefined while the service has not taken it. */
export function serviceIdOf(sqlite: Sqlite, localId: string): string | undefined {
  return prepared(sqlite, 'SELECT service_id FROM id_map WHERE local_id = ?')
    .pluck()
    .get(localId) as string | undefined;
}
