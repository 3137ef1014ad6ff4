// The attendance list's header repeats on every page: a course title (or a detail) of thousands of
// lines is cut to a few lines ending in "…", so the list keeps the pages its participants need
// (a 2,000-line title made 460 pages).
import { describe, expect, it } from 'vitest';
import { renderAttendancePdf } from './pdf';
import type { CourseInfo, ParticipantRecord } from './read';

const pageCount = (bytes: Uint8Array) =>
  (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\/Type \/Page\b(?!s)/g) ?? []
  ).length;

const course = (more: Partial<CourseInfo>): CourseInfo => ({
  id: '1',
  title: 'Erste Hilfe',
  courseNumber: 'EH-1',
  status: null,
  courseType: null,
  client: null,
  location: 'Kassel',
  participants: 30,
  maxParticipants: null,
  trainers: ['Anna Berg'],
  ...more,
});

const participants: ParticipantRecord[] = Array.from({ length: 30 }, (_, index) => ({
  id: String(index),
  firstName: 'Max',
  lastName: `Muster ${index}`,
  company: null,
  birthday: '',
  email: '',
  phone: '',
  status: null,
  attended: null,
  certificateNumber: '',
}));

const render = (info: CourseInfo) =>
  renderAttendancePdf({
    course: info,
    dates: [],
    participants,
    language: 'de',
    now: new Date('2026-11-02T09:30:00Z'),
  });

describe("the attendance list's header", () => {
  it('keeps 30 participants on two pages whatever the title', async () => {
    expect(pageCount((await render(course({}))).bytes)).toBe(2);
    const lines = Array.from({ length: 2000 }, (_, i) => `Zeile ${i} des Kurstitels`).join('\n');
    const long = await render(course({ title: lines }));
    expect(pageCount(long.bytes)).toBe(2);
    expect(long.missing).toEqual([]);
    const word = await render(course({ title: 'Erste-Hilfe-Grundkurs '.repeat(5000) }));
    expect(pageCount(word.bytes)).toBe(2);
  }, 60_000);

  it('cuts a detail of thousands of lines too', async () => {
    const place = Array.from({ length: 2000 }, (_, i) => `Raum ${i}`).join('\n');
    const result = await render(course({ location: place, trainers: Array(3000).fill('Anna') }));
    expect(pageCount(result.bytes)).toBe(2);
  }, 60_000);
});
