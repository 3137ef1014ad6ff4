// Calendar UIDs and SEQUENCE numbers of exported entries. A calendar program recognises an entry
// it imported before by its UID and takes a new version of it only with a higher SEQUENCE, so:
//
// - UIDs derive from the service's ids, qualified by the organisation and the service's host, so
//   the entries of two organisations or two services never collide:
//     course date   course-date-<date id>@org-<organisation id>.<service host>
//     hour entry    hours-<entry id>@org-<organisation id>.<service host>
//     feed event    the feed's own UID (the service's, as in a subscribed feed)
//   The host is the one the replica was last synced from (replica_meta service_host); the part
//   after @ is fixed in the replica (export_uid_domain) once the organisation and host are known,
//   so later exports keep the same UIDs.
// - A record created offline has no service id yet: course-<local id>-date-<n> (its n-th date by
//   start) and hours-<local id>. Once the service has accepted it (id_map) it is exported under its
//   service id, unless its local UID was exported already: then that UID stays, so the calendar
//   updates the entry instead of showing it twice.
// - SEQUENCE: export_uids keeps a digest of each entry's content as last exported; an entry whose
//   digest changed since gets the next SEQUENCE (the feed's own SEQUENCE, where higher, wins).
import { createHash } from 'node:crypto';
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { upsertRow } from '../db/upsert';

const DOMAIN_KEY = 'export_uid_domain';
const FALLBACK_HOST = 'vorort.invalid';

const meta = (sqlite: Sqlite, key: string) =>
  prepared(sqlite, 'SELECT value FROM replica_meta WHERE key = ?').pluck().get(key) as
    string | undefined;

/** Letters, digits, dots and dashes only: what may stand after the @ of a UID. */
const uidSafe = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '') || 'x';

/** The part after @ of every UID this replica exports (see above). */
export function uidDomain(sqlite: Sqlite): string {
  const fixed = meta(sqlite, DOMAIN_KEY);
  if (fixed) return fixed;
  const orgId = prepared(sqlite, "SELECT id FROM singletons WHERE key = 'orga'").pluck().get() as
    string | undefined;
  const host = meta(sqlite, 'service_host');
  const domain = `org-${uidSafe(orgId ?? 'unknown')}.${host ? uidSafe(host) : FALLBACK_HOST}`;
  if (orgId && host)
    prepared(sqlite, 'INSERT OR IGNORE INTO replica_meta (key, value) VALUES (?, ?)').run(
      DOMAIN_KEY,
      domain,
    );
  return domain;
}

/** The local ids of records created offline that the service has accepted, by their service id. */
export function localIdsOf(sqlite: Sqlite, recordType: string): Map<string, string> {
  const rows = prepared(sqlite, 'SELECT service_id, local_id FROM id_map WHERE record_type = ?')
    .raw(true)
    .all(recordType) as [string, string][];
  return new Map(rows);
}

/** Whether an entry with this UID was exported before. */
export function wasExported(sqlite: Sqlite): (uid: string) => boolean {
  const statement = sqlite.prepare('SELECT 1 FROM export_uids WHERE uid = ?').pluck();
  return (uid) => statement.get(uid) !== undefined;
}

/** A short digest of an entry's content (its fields in a fixed order). */
export function contentDigest(fields: readonly unknown[]): string {
  return createHash('sha1').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}

/**
 * The SEQUENCE of each entry for this export, in one transaction: 0 (or the feed's) for a new
 * UID, the same for an unchanged one, one more for one whose content changed since. Entries that
 * share a UID (a feed's series and its changed occurrences) are one content with one SEQUENCE:
 * keyed apart, each export of the series would overwrite the other's digest and count up.
 */
export function assignSequences(
  sqlite: Sqlite,
  entries: readonly { uid: string; digest: string; minimum?: number }[],
  exportedAt: string,
): number[] {
  const read = sqlite.prepare('SELECT digest, sequence FROM export_uids WHERE uid = ?').raw(true);
  const byUid = new Map<string, { digests: string[]; minimum: number }>();
  for (const { uid, digest, minimum = 0 } of entries) {
    const group = byUid.get(uid);
    if (group) {
      group.digests.push(digest);
      group.minimum = Math.max(group.minimum, minimum);
    } else byUid.set(uid, { digests: [digest], minimum });
  }
  const sequences = sqlite.transaction(() => {
    const assigned = new Map<string, number>();
    for (const [uid, group] of byUid) {
      const digest =
        group.digests.length === 1 ? group.digests[0]! : contentDigest(group.digests.sort());
      const known = read.get(uid) as [string, number] | undefined;
      let sequence = group.minimum;
      if (known) {
        const [lastDigest, lastSequence] = known;
        sequence = Math.max(lastDigest === digest ? lastSequence : lastSequence + 1, group.minimum);
        if (lastDigest === digest && sequence === lastSequence) {
          assigned.set(uid, sequence);
          continue;
        }
      }
      upsertRow(sqlite, 'export_uids', ['uid'], { uid, digest, sequence, exported_at: exportedAt });
      assigned.set(uid, sequence);
    }
    return assigned;
  })();
  return entries.map(({ uid }) => sequences.get(uid)!);
}
