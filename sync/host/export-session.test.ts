// Export and the private calendar feed through the app session (issue 13, the app's side), against
// the sandbox over HTTP with real files: the demo signs in and syncs, then export.create answers
// bytes (the calendar read back with ical.js and matched with the replica, the attendance PDF) or
// saves through a save dialog (written to a temporary folder, or cancelled); a missing course and
// a combination no file holds are refused in words; feed.set with the signed-in user's own feed
// address stores its events and never shows its secret path (answers, events, errors); and the
// same calls over browser mode's WebSocket.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { syncWorker } from '../../test/support/bundled';
import { demoSandbox } from '../../test/support/demo-sandbox';
import { until } from '../../test/support/host-session';
import { temporaryFiles } from '../../test/support/temp-files';
import type { AppState, CoreError, CoreEvent, ExportCreated, FeedState } from '../contract';
import { startBrowserServer } from './browser-server';
import { writeExportFile } from '../export/write-file';
import { fileSecretStore } from './files';
import { openHostSession, type HostSession } from './session';

const temp = temporaryFiles('export-session');

const demo = demoSandbox();

/** What the save dialog does next: a path to save to, or null (the person closed it). */
let dialogAnswer: (suggestedName: string) => string | null = () => null;
const dialogAsked: { name: string; mimeType: string }[] = [];

let session: HostSession;
const events: CoreEvent[] = [];
let saveDir: string;

beforeAll(async () => {
  const userDataDir = dirname(temp('user-data/x'));
  saveDir = dirname(temp('saved/x'));
  mkdirSync(saveDir, { recursive: true });
  session = await openHostSession({
    userDataDir,
    secrets: fileSecretStore(join(userDataDir, 'secrets.json')),
    openExternal: async () => undefined,
    demo,
    ...syncWorker,
    // The desktop app's dialog, as electron/main.ts gives it: ask, then write where chosen.
    saveFile: async (suggestedName, bytes, mimeType) => {
      dialogAsked.push({ name: suggestedName, mimeType });
      const path = dialogAnswer(suggestedName);
      if (path === null) return null;
      writeExportFile(path, bytes);
      return path;
    },
  });
  session.onEvent((event) => events.push(event));
  await call<AppState>('account.demo');
  await until(
    () => events.some((e) => e.type === 'sync.finished' && e.ok),
    'the first sync of the demo',
    SYNC_MS,
  );
}, 120_000);

afterAll(async () => {
  await session?.close();
});

async function call<T>(name: string, args: unknown = {}): Promise<T> {
  const outcome = await session.call(name, args);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message.en}`);
  return outcome.value as T;
}

/** A sync here takes the demo's whole small data set and a fetch of the feed. */
const SYNC_MS = 90_000;

async function refusal(name: string, args: unknown): Promise<CoreError> {
  const outcome = await session.call(name, args);
  expect(outcome.ok, `${name} ${JSON.stringify(args)}`).toBe(false);
  if (outcome.ok) throw new Error('accepted');
  return outcome.error;
}

const bytesOf = (created: ExportCreated) => Buffer.from(created.base64 ?? '', 'base64');

function calendarEvents(text: string) {
  return new ICAL.Component(ICAL.parse(text) as unknown[])
    .getAllSubcomponents('vevent')
    .map((component) => new ICAL.Event(component));
}

describe('export.create through the session', () => {
  it('answers a course calendar as bytes: every course date of the replica, once', async () => {
    const days = await call<{ total: number }>('courses.days', { limit: 1 });
    expect(days.total).toBeGreaterThan(5);
    const created = await call<ExportCreated>('export.create', {
      request: { format: 'ics', what: 'courses' },
      deliver: 'data',
    });
    expect(created).toMatchObject({
      fileName: 'kurse.ics',
      mimeType: 'text/calendar; charset=utf-8',
      empty: false,
      count: days.total,
    });
    expect(created.savedTo).toBeUndefined();
    expect(created.counted.de).toBe(`${days.total} Kurstermine`);
    const bytes = bytesOf(created);
    expect(bytes.byteLength).toBe(created.size);
    const parsed = calendarEvents(bytes.toString('utf8'));
    expect(parsed).toHaveLength(created.count);
    expect(new Set(parsed.map((event) => event.uid)).size).toBe(created.count);
  });

  it('answers the attendance list of a course as a PDF, and a missing course or a file no format holds in words', async () => {
    const courses = await call<{
      items: { id: string; participants: number; courseNumber: string | null }[];
    }>('courses.list', { limit: 200 });
    const course = courses.items.find((item) => item.participants > 0);
    expect(course).toBeDefined();
    const created = await call<ExportCreated>('export.create', {
      request: { format: 'pdf', what: 'participants', courseId: course!.id },
      deliver: 'data',
    });
    expect(created.mimeType).toBe('application/pdf');
    expect(created.fileName).toMatch(/^anwesenheitsliste-.+\.pdf$/);
    expect(created.count).toBe(course!.participants);
    expect(bytesOf(created).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const missing = await refusal('export.create', {
      request: { format: 'pdf', what: 'participants', courseId: 'no-such-course' },
    });
    expect(missing.code).toBe('not_found');
    expect(missing.message.de).toContain('no-such-course');
    expect(missing.message.en).toContain('no-such-course');
    expect(missing.message.en).not.toMatch(/at .*\.ts:\d+/);

    const combination = await refusal('export.create', {
      request: { format: 'pdf', what: 'hours' },
    });
    expect(combination.code).toBe('invalid_arguments');
    expect(combination.message.de).toContain('gibt es nicht als PDF');
    expect(combination.message.en).toContain('cannot be exported as PDF');

    const badDate = await refusal('export.create', {
      request: { format: 'ics', what: 'courses', from: '2026-02-30' },
    });
    expect(badDate.code).toBe('invalid_arguments');
    expect(badDate.message.de).toContain('erwartet ein Datum JJJJ-MM-TT');
  });

  it('saves through the save dialog where the host has one, says where, and writes nothing when cancelled', async () => {
    const target = join(saveDir, 'meine-stunden.csv');
    dialogAnswer = () => target;
    const saved = await call<ExportCreated>('export.create', {
      request: { format: 'csv', what: 'hours' },
    });
    expect(dialogAsked.at(-1)).toEqual({
      name: 'helferstunden.csv',
      mimeType: 'text/csv; charset=utf-8',
    });
    expect(saved.savedTo).toBe(target);
    expect(saved.cancelled).toBeUndefined();
    expect(saved.base64).toBeUndefined();
    const written = readFileSync(target);
    expect(written.byteLength).toBe(saved.size);
    // UTF-8 with BOM, the header in German, one line per entry (plus the header).
    expect(written.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(written.toString('utf8')).toContain('Datum;Beginn;Ende;Stunden');
    // Names and birthdays: the owner's alone, as the replica.
    expect(statSync(target).mode & 0o777).toBe(0o600);
    // No temporary file left beside it.
    expect(readdirSync(saveDir)).toEqual(['meine-stunden.csv']);

    // Saved again over it: replaced whole.
    const again = await call<ExportCreated>('export.create', {
      request: { format: 'csv', what: 'hours', separator: ',', language: 'en' },
    });
    expect(again.savedTo).toBe(target);
    expect(readFileSync(target, 'utf8')).toContain('Date,Start,End,Hours');

    // The person closes the dialog: nothing written, nothing said to be written.
    dialogAnswer = () => null;
    const cancelled = await call<ExportCreated>('export.create', {
      request: { format: 'ics', what: 'hours' },
      deliver: 'save',
    });
    expect(cancelled).toMatchObject({
      cancelled: true,
      savedTo: null,
      fileName: 'helferstunden.ics',
    });
    expect(cancelled.base64).toBeUndefined();
    expect(readdirSync(saveDir)).toEqual(['meine-stunden.csv']);

    // A folder that is not there: said in words with the chosen path.
    const nowhere = join(saveDir, 'gone', 'kurse.ics');
    dialogAnswer = () => nowhere;
    const failed = await refusal('export.create', { request: { format: 'ics', what: 'courses' } });
    expect(failed.message.de).toBe(
      `Die Datei konnte nicht unter ${nowhere} gespeichert werden: den Ordner gibt es nicht.`,
    );
    expect(failed.message.en).toContain('there is no such folder');
    expect(existsSync(nowhere)).toBe(false);

    // Asked for the bytes, the desktop app gives them too (no dialog).
    const asked = dialogAsked.length;
    const data = await call<ExportCreated>('export.create', {
      request: { format: 'ics', what: 'courses' },
      deliver: 'data',
    });
    expect(dialogAsked).toHaveLength(asked);
    expect(data.base64?.length).toBeGreaterThan(0);
  });

  it('refuses bytes larger than the cap, in words', async () => {
    const userDataDir = dirname(temp('capped/x'));
    const capped = await openHostSession({
      userDataDir,
      secrets: fileSecretStore(join(userDataDir, 'secrets.json')),
      openExternal: async () => undefined,
      exportDataMaxBytes: 100,
    });
    try {
      const outcome = await capped.call('export.create', {
        request: { format: 'ics', what: 'courses' },
      });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe('not_allowed');
      expect(outcome.error.message.de).toContain('zu groß für einen Download');
      expect(outcome.error.message.en).toContain('too large to download');
      // Below the cap the same session answers (an empty CSV: its header).
      const small = await capped.call('export.create', {
        request: { format: 'csv', what: 'hours', language: 'en' },
      });
      expect(small).toMatchObject({ ok: true, value: { empty: true, count: 0 } });
    } finally {
      await capped.close();
    }
  });
});

describe('the private calendar feed through the session', () => {
  let feedUrl: string;
  let secret: string;

  beforeAll(async () => {
    // A list shows the address without its secret; the dedicated query gives it whole.
    const calendars = await call<{ id: string; icalAddress: string | null }[]>('calendars.list');
    const own = calendars.find((calendar) => calendar.icalAddress);
    expect(own?.icalAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    feedUrl = (await call<string | null>('calendars.icalUrl', { id: own!.id }))!;
    secret = new URL(feedUrl).pathname;
    expect(secret).toMatch(/private-[0-9a-f]+/);
  });

  it('is set, fetched at once and kept in the replica; its address shown without the secret', async () => {
    const before = await call<FeedState>('feed.get');
    expect(before).toEqual({
      configured: false,
      address: null,
      lastFetchedAt: null,
      lastAttemptAt: null,
      events: 0,
      problem: null,
    });
    const from = events.length;
    const set = await call<FeedState>('feed.set', { url: feedUrl });
    const served = calendarEvents(await (await fetch(feedUrl)).text());
    expect(served.length).toBeGreaterThan(0);
    expect(set).toMatchObject({
      configured: true,
      address: `${new URL(feedUrl).origin}/…`,
      events: served.length,
      problem: null,
    });
    expect(set.lastFetchedAt).not.toBeNull();
    expect(await call<FeedState>('feed.get')).toEqual(set);
    expect(events.slice(from)).toContainEqual({
      type: 'data.changed',
      tables: expect.arrayContaining(['feed_events']),
    });

    // Exported from the replica: the service's events, one to one.
    const exported = await call<ExportCreated>('export.create', {
      request: { format: 'ics', what: 'events' },
      deliver: 'data',
    });
    expect(exported.count).toBe(served.length);
    expect(exported.note).toBeUndefined();
    const uids = (list: ReturnType<typeof calendarEvents>) => list.map((e) => e.uid).sort();
    expect(uids(calendarEvents(bytesOf(exported).toString('utf8')))).toEqual(uids(served));

    // The next sync fetches it too; its events and summary never carry the secret path.
    const syncs = events.filter((e) => e.type === 'sync.finished').length;
    await call('sync.now');
    await until(
      () => events.filter((e) => e.type === 'sync.finished').length > syncs,
      'a sync after feed.set',
      SYNC_MS,
    );
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(await call('sync.status'))).not.toContain(secret);
    expect(JSON.stringify(set)).not.toContain(secret);
  });

  it('refuses a bad address in words, without the secret; an unreachable one is a problem in words', async () => {
    const notUrl = await refusal('feed.set', { url: 'private-abc123 termine' });
    expect(notUrl.code).toBe('invalid_arguments');
    expect(notUrl.message.de).toContain('ist keine URL');
    expect(notUrl.message.en).toContain('is not a URL');
    expect(JSON.stringify(notUrl)).not.toContain('abc123');

    const plain = await refusal('feed.set', {
      url: 'http://example.org/ical/v1/veranstaltungen/private-cafe0123/termine.ics',
    });
    expect(plain.message.de).toContain('muss mit https:// beginnen (http://example.org/…)');
    expect(plain.message.en).toContain('must begin with https://');
    expect(JSON.stringify(plain)).not.toContain('cafe0123');

    const wrongType = await refusal('feed.set', { url: 42 });
    expect(wrongType.code).toBe('invalid_arguments');
    expect(wrongType.message.de).toContain('url');

    // Still the good feed after the refusals.
    expect((await call<FeedState>('feed.get')).configured).toBe(true);

    // Nobody listens there: set all the same, the fetch's failure said in words.
    const closed = 'http://127.0.0.1:9/ical/v1/veranstaltungen/private-deadbeef/termine.ics';
    const unreachable = await call<FeedState>('feed.set', { url: closed });
    expect(unreachable).toMatchObject({
      configured: true,
      address: 'http://127.0.0.1:9/…',
      events: 0,
      lastFetchedAt: null,
    });
    expect(unreachable.problem?.de).toContain('nicht erreichbar');
    expect(unreachable.problem?.en).toContain('not reachable');
    expect(JSON.stringify(unreachable)).not.toContain('deadbeef');

    // Offline (the OS says so): stored, not fetched (the next sync does).
    session.networkChanged(false);
    try {
      const offline = await call<FeedState>('feed.set', { url: feedUrl });
      expect(offline).toMatchObject({ configured: true, events: 0, lastAttemptAt: null });
    } finally {
      session.networkChanged(true);
    }
    // Back online: the scheduler finds the service again (a sync), so a fetch is tried again.
    await until(
      () => {
        const last = events.findLast((e) => e.type === 'sync.state');
        return last?.type === 'sync.state' && last.state.phase === 'idle';
      },
      'online again',
      SYNC_MS,
    );

    // Removed: no address, no events; an export of events says why it is empty.
    const removed = await call<FeedState>('feed.set', { url: null });
    expect(removed).toMatchObject({ configured: false, address: null, events: 0 });
    const empty = await call<ExportCreated>('export.create', {
      request: { format: 'ics', what: 'events' },
      deliver: 'data',
    });
    expect(empty).toMatchObject({ empty: true, count: 0 });
    expect(empty.note?.de).toContain('Kein privater Kalender-Feed');
  });

  it('answers over browser mode’s WebSocket as over IPC', async () => {
    const server = await startBrowserServer({ session });
    const ws = new WebSocket(server.socketUrl, [server.protocol], {
      origin: `http://127.0.0.1:${server.port}`,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const answers = new Map<number, { ok: boolean; value?: unknown; error?: CoreError }>();
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; ok: boolean };
        if (typeof message.id === 'number') answers.set(message.id, message);
      });
      const over = async (id: number, name: string, args: unknown) => {
        ws.send(JSON.stringify({ id, call: name, args }));
        await until(() => answers.has(id), `the answer to ${name}`, 30_000);
        return answers.get(id)!;
      };
      const set = await over(1, 'feed.set', { url: feedUrl });
      expect(set.ok).toBe(true);
      expect((set.value as FeedState).events).toBeGreaterThan(0);
      expect(JSON.stringify(set)).not.toContain(secret);
      const created = await over(2, 'export.create', {
        request: { format: 'csv', what: 'events', language: 'en' },
        deliver: 'data',
      });
      expect(created.ok).toBe(true);
      const value = created.value as ExportCreated;
      expect(value.fileName).toBe('events.csv');
      const text = Buffer.from(value.base64!, 'base64').toString('utf8');
      // The header and one row per event (the events have no line breaks in their texts here).
      expect(text.trim().split('\r\n')).toHaveLength(value.count + 1);
      const refused = await over(3, 'export.create', {
        request: { format: 'csv', what: 'participants' },
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
      expect(refused.error?.message.de).toContain('fehlt der Kurs');
    } finally {
      ws.close();
      await server.close();
    }
  });
});
