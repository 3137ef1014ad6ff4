// The outbox's prepared statements are the connection's (sync/db/statements.ts). Kept while
// records.ts and subject.ts import from here: they are moving to sync/resources.
export { prepared } from '../db/statements';
