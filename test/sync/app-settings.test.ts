// The app's settings in the core (settings.get / settings.update, kept in settings.json) and the
// demo's roles, through the app session against the embedded sandbox with real files: defaults,
// changes told to every window and kept across a restart and a sign-out, a hand-edited file read
// field by field, refusals in words; the profile and the course window reach the sync; the demo
// as a trainer signs in as trainer1 with the trainer profile, and back as the office.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSandbox } from '../support/demo-sandbox';
import { call, openTestSession, until } from '../support/host-session';
import type {
  AppSettings,
  AppState,
  CoreEvent,
  CourseListItem,
  Paged,
  SyncStatus,
} from '../../sync/contract';
import { addDays, serviceDay } from '../../sync/contract/service-time';

let dir: string;

/** electron/demo.ts's provider, in this thread. */
const demo = demoSandbox();

const DEFAULTS: AppSettings = {
  profile: 'office',
  courseMonthsBack: 3,
  courseMonthsAhead: 12,
  language: null,
  theme: 'system',
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vorort-app-settings-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const open = (name: string) => openTestSession(join(dir, name), { demo });

/** Waits for the next successful sync after `from` events. */
async function syncedAfter(events: CoreEvent[], from: number): Promise<void> {
  await until(
    () => events.slice(from).some((e) => e.type === 'sync.finished' && e.ok),
    'a successful sync',
  );
}

const settingsFile = (name: string) => join(dir, name, 'settings.json');

describe('settings', () => {
  it('answers the defaults, merges a change, tells every window, keeps it across a restart', async () => {
    const first = await open('kept');
    try {
      expect(await call<AppSettings>(first.session, 'settings.get')).toEqual(DEFAULTS);
      const changed = await call<AppSettings>(first.session, 'settings.update', {
        theme: 'dark',
        courseMonthsAhead: 6,
      });
      expect(changed).toEqual({ ...DEFAULTS, theme: 'dark', courseMonthsAhead: 6 });
      expect(first.events).toContainEqual({ type: 'settings.changed', settings: changed });
      const more = await call<AppSettings>(first.session, 'settings.update', { language: 'en' });
      expect(more).toEqual({ ...changed, language: 'en' });
      expect(await call<AppSettings>(first.session, 'settings.get')).toEqual(more);
      expect(statSync(settingsFile('kept')).mode & 0o777).toBe(0o600);
    } finally {
      await first.session.close();
    }
    const second = await open('kept');
    try {
      expect(await call<AppSettings>(second.session, 'settings.get')).toEqual({
        ...DEFAULTS,
        theme: 'dark',
        courseMonthsAhead: 6,
        language: 'en',
      });
    } finally {
      await second.session.close();
    }
  });

  it('refuses an invalid change in words and keeps what it had', async () => {
    const { session, events } = await open('refused');
    try {
      for (const wrong of [
        { theme: 'pink' },
        { courseMonthsBack: -1 },
        { courseMonthsAhead: 1.5 },
        { profile: 'admin' },
        { colour: 'red' },
        { language: null },
      ]) {
        const outcome = await session.call('settings.update', wrong);
        expect(outcome.ok, JSON.stringify(wrong)).toBe(false);
        if (outcome.ok) continue;
        expect(outcome.error.code).toBe('invalid_arguments');
        expect(outcome.error.message.de.length).toBeGreaterThan(10);
        expect(outcome.error.message.en.length).toBeGreaterThan(10);
        expect(outcome.error.message.en).not.toMatch(/\bat \w+ \(|\.ts:\d+/); // no stack trace
      }
      expect(await call<AppSettings>(session, 'settings.get')).toEqual(DEFAULTS);
      expect(events.some((e) => e.type === 'settings.changed')).toBe(false);
      expect(existsSync(settingsFile('refused'))).toBe(false);
    } finally {
      await session.close();
    }
  });

  it('reads a hand-edited file field by field, and a broken one as defaults, never failing', async () => {
    const edited = join(dir, 'edited');
    const session = await (async () => {
      mkdirSync(edited, { recursive: true, mode: 0o700 });
      writeFileSync(
        join(edited, 'settings.json'),
        JSON.stringify({
          account: 12,
          user: { id: 'x' },
          demoRole: 'boss',
          app: {
            profile: 7,
            theme: 'pink',
            courseMonthsBack: 5,
            courseMonthsAhead: 99,
            language: 'fr',
          },
        }),
      );
      return (await open('edited')).session;
    })();
    try {
      expect(await call<AppSettings>(session, 'settings.get')).toEqual({
        ...DEFAULTS,
        courseMonthsBack: 5,
      });
      expect((await call<AppState>(session, 'app.state')).phase).toBe('first-run');
      // A change writes a clean file.
      await call(session, 'settings.update', { theme: 'light' });
      const saved = JSON.parse(readFileSync(join(edited, 'settings.json'), 'utf8')) as {
        app: AppSettings;
      };
      expect(saved.app).toEqual({ ...DEFAULTS, courseMonthsBack: 5, theme: 'light' });
    } finally {
      await session.close();
    }

    for (const text of ['{not json', '[]', 'null', '"text"', '{"app": "dark"}']) {
      writeFileSync(join(edited, 'settings.json'), text);
      const again = await open('edited');
      try {
        expect(await call<AppSettings>(again.session, 'settings.get'), text).toEqual(DEFAULTS);
      } finally {
        await again.session.close();
      }
    }
  });
});

describe('settings and the sync', () => {
  it('syncs with the profile and the course window of the settings; a sign-out keeps them', async () => {
    const { session, events } = await open('window');
    try {
      // Before the first sync: a window of this month and the next only.
      await call(session, 'settings.update', { courseMonthsBack: 0, courseMonthsAhead: 1 });
      const start = events.length;
      await call<AppState>(session, 'account.demo', { role: 'office' });
      await syncedAfter(events, start);
      const status = await call<SyncStatus>(session, 'sync.status');
      expect(status.profile).toBe('office');
      const courses = await call<Paged<CourseListItem>>(session, 'courses.list', { limit: 1000 });
      expect(courses.total).toBeGreaterThan(0);
      const today = serviceDay(new Date());
      const windowEnd = addDays(today, 32);
      // Every course has a date inside the narrow window (the service's filter), none only later.
      for (const course of courses.items) {
        expect(course.firstDate!.slice(0, 10) < windowEnd, course.id).toBe(true);
        expect(course.lastDate!.slice(0, 10) >= addDays(today, -1), course.id).toBe(true);
      }
      const allCourses = demo.current()!.store.all('course').length;
      expect(courses.total).toBeLessThan(allCourses);

      // The profile: from the next sync on.
      await call(session, 'settings.update', { profile: 'trainer' });
      const before = events.length;
      await call(session, 'sync.now');
      await syncedAfter(events, before);
      expect((await call<SyncStatus>(session, 'sync.status')).profile).toBe('trainer');

      // A sign-out (even deleting the data) keeps the settings.
      await call(session, 'account.logout', { deleteLocalData: true });
      expect(await call<AppSettings>(session, 'settings.get')).toEqual({
        ...DEFAULTS,
        profile: 'trainer',
        courseMonthsBack: 0,
        courseMonthsAhead: 1,
      });
    } finally {
      await session.close();
    }
  });
});

describe('the demo’s roles', () => {
  it('signs in as trainer1 with the trainer profile, and back as the office with a new replica', async () => {
    const { session, events } = await open('roles');
    try {
      const start = events.length;
      const asTrainer = await call<AppState>(session, 'account.demo', { role: 'trainer' });
      expect(asTrainer.phase).toBe('signed-in');
      const trainer1 = demo
        .current()!
        .store.all('user')
        .find((u) => u.attributes.username === 'trainer1')!;
      expect(asTrainer.user?.id).toBe(trainer1.id);
      expect(asTrainer.user?.name).toContain(String(trainer1.attributes.nachname));
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('trainer');
      expect(events).toContainEqual({
        type: 'settings.changed',
        settings: { ...DEFAULTS, profile: 'trainer' },
      });
      await syncedAfter(events, start);
      expect((await call<SyncStatus>(session, 'sync.status')).profile).toBe('trainer');
      const all = await call<Paged<CourseListItem>>(session, 'courses.list', { limit: 1000 });
      const own = await call<Paged<CourseListItem>>(session, 'courses.list', {
        trainerId: 'self',
        limit: 1000,
      });
      expect(all.total).toBeGreaterThan(0);
      expect(own.total).toBe(all.total); // a trainer's replica holds their own courses only
      const days = await call<Paged<unknown>>(session, 'courses.days', { trainerId: 'self' });
      expect(days.total).toBeGreaterThanOrEqual(all.total);

      // Restarted, the demo signs in again as the trainer.
      await session.close();
      const restarted = await open('roles');
      try {
        for (let tries = 0; ; tries += 1) {
          const { phase } = await call<AppState>(restarted.session, 'app.state');
          if (phase === 'signed-in') break;
          if (tries > 600) throw new Error(`not signed in again: ${phase}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect((await call<AppState>(restarted.session, 'app.state')).user?.id).toBe(trainer1.id);

        // Back to the office: another person, so the replica is new; the demo's data stays.
        const before = restarted.events.length;
        const asOffice = await call<AppState>(restarted.session, 'account.demo', {
          role: 'office',
        });
        const office = demo.current()!.users.find((u) => u.role === 'office')!;
        expect(asOffice.user?.id).toBe(office.id);
        expect((await call<AppSettings>(restarted.session, 'settings.get')).profile).toBe('office');
        expect(
          restarted.events
            .slice(before)
            .some((e) => e.type === 'data.changed' && e.tables === 'all'),
        ).toBe(true);
        expect(existsSync(join(dir, 'roles', 'demo', 'sandbox.sqlite'))).toBe(true);
        await syncedAfter(restarted.events, before);
        expect((await call<SyncStatus>(restarted.session, 'sync.status')).profile).toBe('office');
        const officeCourses = await call<Paged<CourseListItem>>(restarted.session, 'courses.list', {
          limit: 1000,
        });
        expect(officeCourses.total).toBeGreaterThan(all.total);
      } finally {
        await restarted.session.close();
      }
    } finally {
      await session.close();
    }
  });
});
