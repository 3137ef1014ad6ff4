// Times across the daylight-saving changes, whatever this machine's zone: `vorort export` run in
// child processes under TZ=UTC, TZ=America/New_York and TZ=Europe/Berlin writes the same calendar
// (but for DTSTAMP) and the same CSV, and a course at 10:00 Berlin time on the Friday before and
// the Monday after each change stays at 10:00 Berlin time (09:00 or 08:00 UTC).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/bundled';
import { temporaryFiles } from '../support/temp-files';
import { berlinDateTime, dstDays, exportWorld, type ExportWorld } from './fixture';

const run = promisify(execFile);
const temp = temporaryFiles('export-dst');
const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin'];
let world: ExportWorld;

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
  // The replica is closed for the children (they open it themselves).
  await world.replica.close();
}, 60_000);
afterAll(() => world?.sandbox.close());

const berlinClock = (ms: number) =>
  new Intl.DateTimeFormat('de-DE', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    minute: '2-digit',
  }).format(ms);

async function exportIn(zone: string, format: 'ics' | 'csv'): Promise<string> {
  const out = temp(`dst.${format}`);
  await run(
    process.execPath,
    [
      CLI,
      'export',
      '--db',
      world.file,
      '--format',
      format,
      '--what',
      'courses',
      '--course',
      world.dstCourseId,
      '--out',
      out,
    ],
    { env: { ...process.env, TZ: zone } },
  );
  return readFileSync(out, 'utf8');
}

describe('times across the DST changes', () => {
  it('the child processes really run in the three zones', async () => {
    const hours = await Promise.all(
      ZONES.map(async (zone) => {
        const { stdout } = await run(
          process.execPath,
          ['-e', "process.stdout.write(String(new Date('2026-07-01T12:00:00Z').getHours()))"],
          { env: { ...process.env, TZ: zone } },
        );
        return stdout;
      }),
    );
    expect(hours).toEqual(['12', '8', '14']);
  });

  it('keeps 10:00 Berlin time on both sides of both changes, the same file in every zone', async () => {
    const days = dstDays(world.year);
    const expected = days.map((day) => ({
      start: Date.parse(berlinDateTime(day, '10:00')),
      end: Date.parse(berlinDateTime(day, '12:00')),
    }));
    // Winter, summer, summer, winter: 09:00, 08:00, 08:00, 09:00 UTC.
    expect(expected.map((e) => new Date(e.start).getUTCHours())).toEqual([9, 8, 8, 9]);
    const calendars = await Promise.all(ZONES.map((zone) => exportIn(zone, 'ics')));
    const withoutStamps = calendars.map((text) => text.replace(/^DTSTAMP:.*\r\n/gm, ''));
    expect(withoutStamps[1]).toBe(withoutStamps[0]);
    expect(withoutStamps[2]).toBe(withoutStamps[0]);
    for (const text of calendars) {
      const events = new ICAL.Component(ICAL.parse(text) as unknown[])
        .getAllSubcomponents('vevent')
        .map((component) => new ICAL.Event(component))
        .sort((a, b) => a.startDate.toUnixTime() - b.startDate.toUnixTime());
      expect(
        events.map((e) => ({
          start: e.startDate.toUnixTime() * 1000,
          end: e.endDate.toUnixTime() * 1000,
        })),
      ).toEqual(expected);
      for (const event of events) {
        expect(berlinClock(event.startDate.toUnixTime() * 1000)).toBe('10:00');
        expect(berlinClock(event.endDate.toUnixTime() * 1000)).toBe('12:00');
        // UTC on the wire: no floating times, no zone of the machine.
        expect(event.startDate.zone?.tzid).toBe('UTC');
      }
    }
  });

  it('writes 10:00–12:00 and the Berlin dates into the CSV in every zone', async () => {
    const days = dstDays(world.year);
    const files = await Promise.all(ZONES.map((zone) => exportIn(zone, 'csv')));
    expect(files[1]).toBe(files[0]);
    expect(files[2]).toBe(files[0]);
    const rows = parse(files[0]!, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => [r.Datum, r.Beginn, r.Ende])).toEqual(
      days.map((day) => [day.split('-').reverse().join('.'), '10:00', '12:00']),
    );
  });
});
