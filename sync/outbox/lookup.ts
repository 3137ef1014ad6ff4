// A POST whose answer never came (DESIGN rule 7) is never sent blindly again: first the record
// is looked for on the service, in the collection it was created in (its resource's module says
// which: sync/resources), by what was sent. Found:
// it is adopted. Certainly absent (the collection was read completely and it is not there): it is
// sent again. The service offers no list of occasions, so an occasion cannot be looked for:
// it waits for the person to decide.
import type { Sqlite } from '../db/sqlite';
import { subMinutes } from 'date-fns';
import type { ApiClient } from '../api';
import { writableResource, type Candidates, type ServiceResource } from '../resources';
import { parseArgs, verbOf, type OutboxRow, type WriteArgs } from './operations';
import { sameValue } from './requests';

export type LookupResult =
  | { found: ServiceResource; included: ServiceResource[] }
  | { absent: true }
  | { cannotTell: string };

/** How far before the request the service's change times may lie (clocks differ). */
const CLOCK_SLACK_MINUTES = 10;

/** Every sent attribute and relationship has the same value on the candidate. */
export function matchesWhatWasSent(args: WriteArgs, candidate: ServiceResource): boolean {
  const attributes = candidate.attributes ?? {};
  for (const [name, value] of Object.entries(args.attributes ?? {})) {
    if (name === 'qualifikationen') continue;
    if (!sameValue(value, attributes[name])) return false;
  }
  for (const [name, value] of Object.entries(args.relationships ?? {})) {
    const sent = (value as { data?: unknown }).data;
    const theirs = candidate.relationships?.[name]?.data;
    const ids = (data: unknown) =>
      (Array.isArray(data) ? data : data ? [data] : [])
        .map((ref) => String((ref as { id: unknown }).id))
        .sort()
        .join(',');
    // A record made in the same request (`new-…`) has the service's id now: not comparable.
    if (sent === undefined || ids(sent).includes('new-')) continue;
    if (ids(sent) !== ids(theirs)) return false;
  }
  return true;
}

async function collect(pages: Candidates) {
  const data: ServiceResource[] = [];
  const included: ServiceResource[] = [];
  for await (const page of pages) {
    data.push(...page.data);
    included.push(...page.included);
  }
  return { data, included };
}

export async function lookForCreated(
  api: ApiClient,
  sqlite: Sqlite,
  op: OutboxRow,
  signal?: AbortSignal,
): Promise<LookupResult> {
  const args = parseArgs(op);
  const since = subMinutes(new Date(op.sent_at ?? op.created_at), CLOCK_SLACK_MINUTES);
  const resource = verbOf(op.command) === 'create' ? writableResource(op.record_type) : undefined;
  const candidates = resource?.lookupCreated?.({
    api,
    args,
    since,
    options: signal ? { signal } : {},
    selfId: () =>
      sqlite.prepare("SELECT value FROM replica_meta WHERE key = 'self_id'").pluck().get() as
        string | undefined,
  }) ?? { cannotTell: `the service has no list to look for a ${op.record_type} in` };
  if ('cannotTell' in candidates) return candidates;
  const answer = await collect(candidates);
  const adopted = new Set(
    sqlite
      .prepare('SELECT service_id FROM id_map WHERE record_type = ?')
      .pluck()
      .all(op.record_type) as string[],
  );
  // A record the service says it made before the request left is someone else's, not ours.
  const madeBefore = (candidate: ServiceResource) => {
    const created = candidate.attributes?.created_at;
    return typeof created === 'string' && Date.parse(created) < since.getTime();
  };
  const found = answer.data.find(
    (candidate) =>
      !adopted.has(candidate.id) && !madeBefore(candidate) && matchesWhatWasSent(args, candidate),
  );
  return found ? { found, included: answer.included } : { absent: true };
}
