// What the formats read alike: the course dates and hours a request selects, the note for a
// calendar feed never set up, and a course's file name.
import type { Replica } from '../db/open';
import { serviceDay } from '../contract';
import { getFeedUrl } from '../pull/feed';
import { listDue } from '../queries/personnel-due';
import { readCourseDates, readHours, resolveSelf, type HourRecord } from './read';
import type { ExportRequest } from './request';
import { fileNamePart } from './words';

export async function courseDatesOf(replica: Replica, request: ExportRequest) {
  return readCourseDates(replica.db, {
    from: request.from,
    until: request.until,
    courseId: request.courseId,
    trainerId: resolveSelf(replica.sqlite, request.trainerId),
  });
}

export function hoursOf(replica: Replica, request: ExportRequest): HourRecord[] {
  return readHours(replica.sqlite, {
    from: request.from,
    until: request.until,
    userId: resolveSelf(replica.sqlite, request.userId),
    anlassId: request.anlassId,
    typId: request.typId,
    approved: request.approved,
  });
}

/** What falls due by the request's `until`, whole (as personnel.due gives it), as of `now`'s day. */
export function dueOf(replica: Replica, request: ExportRequest, now: Date) {
  return listDue(replica.sqlite, {
    until: request.until!,
    today: serviceDay(now),
    unread: request.includeUnread,
    // Every person (SQLite: a negative limit is none).
    limit: -1,
    offset: 0,
  });
}

/** Said when the private feed was never set up: an empty list has a reason. */
export function feedNote(replica: Replica): { de: string; en: string } | undefined {
  if (getFeedUrl(replica.sqlite)) return undefined;
  return {
    de: 'Kein privater Kalender-Feed eingerichtet (vorort sync --feed-url ADRESSE).',
    en: 'No private calendar feed is set up (vorort sync --feed-url ADDRESS).',
  };
}

export function courseFileName(base: string, courseNumber: string | null, id: string) {
  return `${base}-${fileNamePart(courseNumber || id)}`;
}
