// The private calendar feed in the replica (issue 13): its address (replica_meta feed_url), one
// plain fetch of it (no OAuth: the secret is the path), its events kept in feed_events, replaced
// whole per fetch in one transaction. A fetch that fails or cannot be read keeps the events of the
// last good one and says why (replica_meta feed_status). The address is a secret: it never
// appears in a message, a status or an error; only its host is shown ("https://host/…").
//
// setFeedUrl and refreshFeed are what a session, the CLI (`vorort sync --feed-url`) and the sync
// call; the sync fetches the feed once per run (feed-sync.ts).
import type { Sqlite } from '../db/sqlite';
import { invalid } from '../core-error';
import type { Replica } from '../db/open';
import { prepared } from '../db/statements';
import { upsertRow } from '../db/upsert';
import { FeedParseError, parseFeed, type FeedEventRow } from './feed-parse';

const URL_KEY = 'feed_url';
const STATUS_KEY = 'feed_status';

export const FEED_TIMEOUT_MS = 20_000;
export const FEED_MAX_BYTES = 10 * 1024 * 1024;

type Words = { de: string; en: string };

export interface FeedStatus {
  /** The address without its secret: "https://host/…". */
  address: string;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  /** Events in the replica now (of the last readable fetch). */
  events: number;
  ok: boolean | null;
  /** Why the last fetch gave nothing new, in words (no address in them). */
  error: Words | null;
}

export type FeedFailure = 'network' | 'timeout' | 'http' | 'too_large' | 'unparsable' | 'cancelled';

export type FeedRefresh =
  | { ok: true; events: number; status: FeedStatus }
  | { ok: false; failure: FeedFailure; error: Words; events: number; status: FeedStatus };

type Db = Pick<Replica, 'sqlite'>;

const meta = (sqlite: Sqlite, key: string) =>
  prepared(sqlite, 'SELECT value FROM replica_meta WHERE key = ?').pluck().get(key) as
    string | undefined;

const setMeta = (sqlite: Sqlite, key: string, value: string) =>
  upsertRow(sqlite, 'replica_meta', ['key'], { key, value });

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

/** The address as a person may see it: scheme, host and port, the path hidden. */
export function redactFeedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '…';
  }
}

/** Checks an address given for the feed: https (http only on this computer), no more than 2,000 characters. */
export function checkFeedUrl(url: string): string {
  const text = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw invalid(
      'Die Adresse des Kalender-Feeds ist keine URL (erwartet: https://…/ical/v1/veranstaltungen/private-…/….ics).',
      'The calendar feed’s address is not a URL (expected: https://…/ical/v1/veranstaltungen/private-…/….ics).',
      'url',
    );
  }
  const loopback = LOOPBACK.test(parsed.hostname) || parsed.hostname === '::1';
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback))
    throw invalid(
      `Die Adresse des Kalender-Feeds muss mit https:// beginnen (${redactFeedUrl(text)}); http nur für einen Dienst auf diesem Computer.`,
      `The calendar feed’s address must begin with https:// (${redactFeedUrl(text)}); http only for a service on this computer.`,
      'url',
    );
  if (text.length > 2000)
    throw invalid(
      'Die Adresse des Kalender-Feeds ist länger als 2.000 Zeichen.',
      'The calendar feed’s address is longer than 2,000 characters.',
      'url',
    );
  return parsed.toString();
}

export function getFeedUrl(sqlite: Sqlite): string | null {
  return meta(sqlite, URL_KEY) ?? null;
}

/**
 * Sets the feed's address (checked, see checkFeedUrl), or removes it with null. Another address
 * (another person's feed) or none drops the events of the old one and its status at once.
 */
export function setFeedUrl(replica: Db, url: string | null): void {
  const { sqlite } = replica;
  const next = url === null || url.trim() === '' ? null : checkFeedUrl(url);
  sqlite.transaction(() => {
    if (getFeedUrl(sqlite) === next) return;
    prepared(sqlite, 'DELETE FROM feed_events').run();
    prepared(sqlite, 'DELETE FROM replica_meta WHERE key = ?').run(STATUS_KEY);
    if (next === null) prepared(sqlite, 'DELETE FROM replica_meta WHERE key = ?').run(URL_KEY);
    else setMeta(sqlite, URL_KEY, next);
  })();
}

interface StoredStatus {
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  ok: boolean | null;
  error: Words | null;
}

/** Where the feed stands, without its secret; null when none is set up. */
export function feedStatus(replica: Db): FeedStatus | null {
  const { sqlite } = replica;
  const url = getFeedUrl(sqlite);
  if (!url) return null;
  let stored: StoredStatus = { lastAttemptAt: null, lastSuccessAt: null, ok: null, error: null };
  try {
    stored = { ...stored, ...(JSON.parse(meta(sqlite, STATUS_KEY) ?? '{}') as StoredStatus) };
  } catch {
    // A damaged status is as none: the next fetch writes it anew.
  }
  const events = prepared(sqlite, 'SELECT count(*) FROM feed_events').pluck().get() as number;
  return { address: redactFeedUrl(url), ...stored, events };
}

export interface RefreshFeedOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  now?: () => Date;
}

/**
 * Fetches the feed once and replaces its events; null when no feed is set up. Never throws for
 * the feed's sake: a failure keeps the old events and is answered (and kept in the status) in words.
 */
export async function refreshFeed(
  replica: Db,
  options: RefreshFeedOptions = {},
): Promise<FeedRefresh | null> {
  const { sqlite } = replica;
  const url = getFeedUrl(sqlite);
  if (!url) return null;
  const now = options.now ?? (() => new Date());
  const attemptAt = now().toISOString();
  const address = redactFeedUrl(url);
  let rows: FeedEventRow[];
  try {
    const text = await fetchFeed(url, options);
    rows = parseFeed(text);
  } catch (error) {
    const failure = describeFailure(error, address, options);
    // A cancelled fetch says nothing about the feed: its status stays as it was.
    if (failure.failure !== 'cancelled')
      sqlite.transaction(() => {
        if (getFeedUrl(sqlite) !== url) return;
        const before = feedStatus(replica);
        writeStatus(sqlite, {
          lastAttemptAt: attemptAt,
          lastSuccessAt: before?.lastSuccessAt ?? null,
          ok: false,
          error: failure.error,
        });
      })();
    const status = feedStatus(replica) ?? emptyStatus(address);
    return { ok: false, ...failure, events: status.events, status };
  }
  const fetchedAt = now().toISOString();
  const insert = prepared(
    sqlite,
    `INSERT INTO feed_events (uid, recurrence_id, summary, description, location, categories, status,
       starts_at, ends_at, all_day, start_day, rrule, sequence, stamp, fetched_at, ical, last_day)
     VALUES (@uid, @recurrence_id, @summary, @description, @location, @categories, @status,
       @starts_at, @ends_at, @all_day, @start_day, @rrule, @sequence, @stamp, @fetched_at, @ical,
       @last_day)`,
  );
  const replaced = sqlite.transaction(() => {
    // The address changed while this fetch ran: its answer belongs to no feed any more.
    if (getFeedUrl(sqlite) !== url) return false;
    prepared(sqlite, 'DELETE FROM feed_events').run();
    for (const row of rows) insert.run({ ...row, fetched_at: fetchedAt });
    writeStatus(sqlite, {
      lastAttemptAt: attemptAt,
      lastSuccessAt: fetchedAt,
      ok: true,
      error: null,
    });
    return true;
  })();
  const status = feedStatus(replica) ?? emptyStatus(address);
  if (!replaced)
    return {
      ok: false,
      failure: 'cancelled',
      error: {
        de: 'Die Adresse des Kalender-Feeds wurde während des Abrufs geändert.',
        en: 'The calendar feed’s address was changed while it was fetched.',
      },
      events: status.events,
      status,
    };
  return { ok: true, events: rows.length, status };
}

function emptyStatus(address: string): FeedStatus {
  return { address, lastAttemptAt: null, lastSuccessAt: null, events: 0, ok: null, error: null };
}

function writeStatus(sqlite: Sqlite, status: StoredStatus): void {
  setMeta(sqlite, STATUS_KEY, JSON.stringify(status));
}

class FeedHttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

class FeedTooLarge extends Error {}

/** One GET, without credentials, within the time and size limits; the text of the answer. */
async function fetchFeed(url: string, options: RefreshFeedOptions): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? FEED_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const response = await (options.fetch ?? fetch)(url, {
    signal,
    headers: { accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1' },
    credentials: 'omit',
    redirect: 'follow',
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new FeedHttpError(response.status);
  }
  const limit = options.maxBytes ?? FEED_MAX_BYTES;
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new FeedTooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new FeedTooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/** A failure in words, with the host only ("https://host/…"), never the path. */
function describeFailure(
  error: unknown,
  address: string,
  options: RefreshFeedOptions,
): { failure: FeedFailure; error: Words } {
  const seconds = Math.round((options.timeoutMs ?? FEED_TIMEOUT_MS) / 1000);
  if (options.signal?.aborted)
    return {
      failure: 'cancelled',
      error: {
        de: `Abruf des Kalender-Feeds (${address}) abgebrochen.`,
        en: `Fetching the calendar feed (${address}) was cancelled.`,
      },
    };
  if (error instanceof FeedHttpError) {
    const { status } = error;
    const [de, en] =
      status === 404 || status === 410
        ? [
            'unter dieser Adresse gibt es keinen Feed (mehr); die Adresse des Feeds steht in den Kalender-Einstellungen des Dienstes',
            'there is no feed (any more) at this address; the feed’s address is in the service’s calendar settings',
          ]
        : status === 401 || status === 403
          ? ['der Dienst verweigert den Abruf', 'the service refuses it']
          : status === 429
            ? ['der Dienst bittet, später wiederzukommen', 'the service asks to come back later']
            : ['der Dienst antwortet mit einem Fehler', 'the service answers with an error'];
    return {
      failure: 'http',
      error: {
        de: `Kalender-Feed (${address}): ${de} (HTTP ${status}). Die bisherigen Termine bleiben.`,
        en: `Calendar feed (${address}): ${en} (HTTP ${status}). The events so far are kept.`,
      },
    };
  }
  if (error instanceof FeedTooLarge)
    return {
      failure: 'too_large',
      error: {
        de: `Kalender-Feed (${address}): die Antwort ist größer als ${Math.round((options.maxBytes ?? FEED_MAX_BYTES) / 1048576)} MB und wird nicht gelesen. Die bisherigen Termine bleiben.`,
        en: `Calendar feed (${address}): the answer is larger than ${Math.round((options.maxBytes ?? FEED_MAX_BYTES) / 1048576)} MB and is not read. The events so far are kept.`,
      },
    };
  if (error instanceof FeedParseError)
    return {
      failure: 'unparsable',
      error: {
        de: `Kalender-Feed (${address}): die Antwort ist kein lesbarer Kalender (${error.message}). Die bisherigen Termine bleiben.`,
        en: `Calendar feed (${address}): the answer is not a readable calendar (${error.message}). The events so far are kept.`,
      },
    };
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return {
      failure: 'timeout',
      error: {
        de: `Kalender-Feed (${address}): keine Antwort binnen ${seconds} s. Die bisherigen Termine bleiben.`,
        en: `Calendar feed (${address}): no answer within ${seconds} s. The events so far are kept.`,
      },
    };
  // fetch's own errors name the host at most (ECONNREFUSED, ENOTFOUND), never the path.
  const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
  const code = typeof cause === 'string' && /^[A-Z_]+$/.test(cause) ? ` (${cause})` : '';
  return {
    failure: 'network',
    error: {
      de: `Kalender-Feed (${address}): nicht erreichbar${code}. Die bisherigen Termine bleiben.`,
      en: `Calendar feed (${address}): not reachable${code}. The events so far are kept.`,
    },
  };
}
