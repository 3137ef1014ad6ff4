// Changes to courses that the service's web interface makes, not its API:
//   POST   /courses/:id/dates/:dateId/move   a date moved (by whole days, or to a new from/to)
//   POST   /courses/:id/trainers             trainers assigned or removed
//   DELETE /courses/:id                      the course deleted with everything that hangs on it
// Change times as on the service: a moved date is a change of the date only (the course keeps
// its updatedAt, which is what makes this change easy for a client to miss); a trainer change
// is a change of the course.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ResourceRef, StoredResource } from '../data/store';
import {
  DAY_MS,
  HOUR_MS,
  berlinOffsetMinutes,
  berlinWallClockToUtc,
  formatBerlinDateTime,
} from '../data/time';
import { dateTime } from '../http/schemas';
import { type AdminContext, change } from './context';
import { badRequest, noSuchRecord } from './errors';
import { readBody } from './input';
import { putTouched, requireRecord } from './lookup';

const MINUTE_MS = 60_000;

/**
 * The same Berlin wall-clock time `days` later, written with the Berlin offset of that day: a
 * date moved across a change to or from summer time keeps its hour, not its UTC instant.
 */
export function shiftBerlinDays(value: string, days: number): string {
  const instant = Date.parse(value);
  const wall = instant + berlinOffsetMinutes(instant) * MINUTE_MS;
  const wallDay = Math.floor(wall / DAY_MS) * DAY_MS;
  const intoDay = wall - wallDay;
  const hour = Math.floor(intoDay / HOUR_MS);
  const minute = Math.floor((intoDay % HOUR_MS) / MINUTE_MS);
  const rest = intoDay % MINUTE_MS;
  return formatBerlinDateTime(berlinWallClockToUtc(wallDay + days * DAY_MS, hour, minute) + rest);
}

const move = z.union([
  z.strictObject({ days: z.number().int().min(-36_500).max(36_500) }),
  z.strictObject({ from: dateTime, to: dateTime }),
]);

const userIds = z.array(z.string().min(1)).max(1000);
const trainerChange = z.strictObject({ add: userIds.optional(), remove: userIds.optional() });

function refsOf(record: StoredResource, name: string): ResourceRef[] {
  const value = record.relationships[name];
  return Array.isArray(value) ? value : value ? [value] : [];
}

function moveDate(admin: AdminContext, courseId: string, dateId: string, body: unknown) {
  const { api } = admin;
  const input = readBody(move, body);
  const course = requireRecord(api, 'course', courseId);
  const date = requireRecord(api, 'course_date', dateId, 'course date');
  const ofCourse =
    refsOf(date, 'course').some((ref) => ref.id === course.id) ||
    refsOf(course, 'dates').some((ref) => ref.id === date.id);
  if (!ofCourse) throw noSuchRecord(`Course ${course.id} has no date ${date.id}.`);
  const { from, to } =
    'days' in input
      ? {
          from: shiftBerlinDays(String(date.attributes.from), input.days),
          to: shiftBerlinDays(String(date.attributes.to), input.days),
        }
      : input;
  if (Date.parse(to) <= Date.parse(from))
    throw badRequest('A course date must end after it begins.');
  // The date alone changes: the service does not touch the course.
  return change(admin, () =>
    api.store.put({ ...date, attributes: { ...date.attributes, from, to } }),
  );
}

function changeTrainers(admin: AdminContext, courseId: string, body: unknown) {
  const { api } = admin;
  const input = readBody(trainerChange, body);
  const course = requireRecord(api, 'course', courseId);
  for (const id of input.add ?? []) requireRecord(api, 'user', id, 'person');
  const removed = new Set(input.remove ?? []);
  const trainers = refsOf(course, 'trainers').filter((ref) => !removed.has(ref.id));
  for (const id of input.add ?? []) {
    if (!trainers.some((ref) => ref.id === id)) trainers.push({ type: 'user', id });
  }
  return change(admin, () =>
    putTouched(api, { ...course, relationships: { ...course.relationships, trainers } }),
  );
}

/** The course, its dates, participations with their cancellations, custom fields and forms. */
function deleteCourse(admin: AdminContext, courseId: string) {
  const { api } = admin;
  const { store } = api;
  const course = requireRecord(api, 'course', courseId);
  return change(admin, () => {
    const dateIds = new Set([
      ...refsOf(course, 'dates').map((ref) => ref.id),
      ...store.related('course_date', 'course', course.id).map((date) => date.id),
    ]);
    for (const id of dateIds) store.remove('course_date', id);
    for (const participation of store.related('participation', 'course', course.id)) {
      for (const cancellation of store.related('cancellation', 'participation', participation.id))
        store.remove('cancellation', cancellation.id);
      store.remove('participation', participation.id);
    }
    for (const field of store.related('customfield', 'course', course.id))
      store.remove('customfield', field.id);
    // 'k' is the course in the forms' object letters (sandbox/http/formulare.ts).
    for (const form of store.all('formular')) {
      if (form.attributes.objekt_typ === 'k' && form.attributes.objekt_id === course.id)
        store.remove('formular', form.id);
    }
    store.remove('course', course.id);
  });
}

export function registerCourseChanges(scope: FastifyInstance, admin: AdminContext): void {
  scope.post<{ Params: { id: string; dateId: string } }>(
    '/courses/:id/dates/:dateId/move',
    async (request) => {
      const { changed } = moveDate(admin, request.params.id, request.params.dateId, request.body);
      return { changed };
    },
  );

  scope.post<{ Params: { id: string } }>('/courses/:id/trainers', async (request) => {
    const { changed } = changeTrainers(admin, request.params.id, request.body);
    return { changed };
  });

  scope.delete<{ Params: { id: string } }>('/courses/:id', async (request) => {
    const { changed } = deleteCourse(admin, request.params.id);
    return { changed };
  });
}
