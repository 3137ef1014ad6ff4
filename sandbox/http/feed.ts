// The private iCal feed (tag "Kalender"): /ical/v1/veranstaltungen/private-{hash}/<name>.ics,
// no OAuth; the secret hash in the path names the account (unknown hash: 404). Its events:
// the services and appointments the owner has hours for (through the occasions' references)
// and, while the course module is licensed, every date of the courses they train or attend
// (participation not cancelled); cancelled courses are left out.
import type { FastifyInstance } from 'fastify';
import type { StoredResource } from '../data/store';
import type { ApiContext } from './context';
import { notFound } from './errors';
import { type CalendarEvent, renderCalendar } from './ical';
import { toOneId } from './records';
import { datesOf } from './courses';
import { sendBody } from './respond';

const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function accountWithHash(context: ApiContext, hash: string): StoredResource | undefined {
  return context.store.all('account').find((account) => account.attributes.feedHash === hash);
}

function eventsOfHours(
  context: ApiContext,
  userId: string,
  organizer: CalendarEvent['organizer'],
): CalendarEvent[] {
  const events = new Map<string, CalendarEvent>();
  for (const entry of context.store.related('helferstunden', 'user', userId)) {
    const anlassId = toOneId(entry, 'anlass');
    const anlass = anlassId ? context.store.get('helferstunden_anlass', anlassId) : undefined;
    const referenz = anlass?.relationships.referenz;
    if (
      !anlass ||
      !referenz ||
      Array.isArray(referenz) ||
      events.has(`${referenz.type}-${referenz.id}`)
    )
      continue;
    const event = context.store.get(referenz.type, referenz.id);
    if (!event) continue;
    events.set(`${referenz.type}-${referenz.id}`, {
      uid: `${referenz.type}-${referenz.id}@vorort-sandbox`,
      category: referenz.type === 'dienst' ? 'Dienst' : 'Termin',
      stamp: Date.parse(event.updatedAt),
      start: Date.parse(text(event.attributes.beginn)),
      end: Date.parse(text(event.attributes.ende)),
      summary: text(event.attributes.titel),
      location: text(event.attributes.ort),
      organizer,
      description: text(anlass.attributes.beschreibung),
    });
  }
  return [...events.values()];
}

function addressLine(address: StoredResource | undefined): string {
  if (!address) return '';
  const a = address.attributes;
  const town = [text(a.postal_code), text(a.city)].filter(Boolean).join(' ');
  return [text(a.description), text(a.street), town].filter(Boolean).join(', ');
}

function eventsOfCourses(
  context: ApiContext,
  userId: string,
  organizer: CalendarEvent['organizer'],
): CalendarEvent[] {
  const roles = new Map<string, string>();
  for (const course of context.store.related('course', 'trainers', userId))
    roles.set(course.id, 'Ausbilder/in');
  for (const participation of context.store.related('participation', 'user', userId)) {
    const courseId = toOneId(participation, 'course');
    if (courseId && participation.attributes.status !== 'cancelled' && !roles.has(courseId))
      roles.set(courseId, 'Teilnehmer/in');
  }
  const events: CalendarEvent[] = [];
  for (const [courseId, role] of roles) {
    const course = context.store.get('course', courseId);
    if (!course || course.attributes.status === 'cancelled') continue;
    const locationId = toOneId(course, 'location');
    const location = addressLine(locationId ? context.store.get('address', locationId) : undefined);
    const comment = text(course.attributes.comment);
    for (const courseDate of datesOf(context, course)) {
      events.push({
        uid: `course-${course.id}-${courseDate.id}@vorort-sandbox`,
        category: 'Kurs',
        stamp: Date.parse(course.updatedAt),
        start: Date.parse(text(courseDate.attributes.from)),
        end: Date.parse(text(courseDate.attributes.to)),
        summary: `${text(course.attributes.title)} (${text(course.attributes.course_number)})`,
        location,
        organizer,
        description: [role, comment].filter(Boolean).join('\n'),
      });
    }
  }
  return events;
}

export function registerFeedRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get<{ Params: { hash: string; file: string } }>(
    '/ical/v1/veranstaltungen/private-:hash/:file',
    async (request, reply) => {
      const account = accountWithHash(context, request.params.hash);
      if (!account || !request.params.file.endsWith('.ics'))
        throw notFound('No calendar feed at this address.');
      const orga = context.store.all('orga')[0]?.attributes ?? {};
      const organizer = {
        name: text(orga.name) || 'Sandbox',
        email: text(orga.email) || 'info@example.org',
      };
      const events = [
        ...eventsOfHours(context, account.id, organizer),
        ...(context.coursesLicensed ? eventsOfCourses(context, account.id, organizer) : []),
      ].sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid));
      const user = context.store.get('user', account.id);
      const name =
        `${text(orga.name)}: ${text(user?.attributes.vorname)} ${text(user?.attributes.nachname)}`.trim();
      return sendBody(reply, 200, renderCalendar(name, events), CALENDAR_CONTENT_TYPE);
    },
  );
}
