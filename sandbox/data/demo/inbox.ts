// What each demo account sees besides the records: calendars with the private feed, notifications,
// and the forms offered for services, appointments, courses, material and people.
import type {
  BenachrichtigungAttributes,
  FormularAttributes,
  FormularObjektTyp,
  KalenderAttributes,
} from '../model';
import type { AccountAttributes } from '../store';
import { DAY_MS, HOUR_MS, formatBerlinDate } from '../time';
import type { GenerationContext } from './context';
import type { CourseInfo } from './courses';
import type { EventRef } from './hours';
import type { Person, Personnel } from './personnel';

/** The private feed of an account; relative, the server puts its own origin in front. */
export function feedPath(feedHash: string): string {
  return `/ical/v1/veranstaltungen/private-${feedHash}/termine.ics`;
}

export function generateInbox(
  ctx: GenerationContext,
  personnel: Personnel,
  courses: CourseInfo[],
  events: EventRef[],
): void {
  storeCalendars(ctx, personnel);
  storeNotifications(ctx, personnel, courses);
  storeForms(ctx, personnel, courses, events);
}

const CALENDAR_COLOURS = ['#c00000', '#1f6feb', '#2da44e', '#bf8700', '#8250df'];

function storeCalendars(ctx: GenerationContext, personnel: Personnel): void {
  const { random } = ctx;
  for (const person of personnel.accounts) {
    const account = ctx.store.get('account', person.id)!.attributes as unknown as AccountAttributes;
    const second: Pick<KalenderAttributes, 'name' | 'beschreibung' | 'typ'> =
      account.role === 'office'
        ? {
            name: 'Ortsverein Musterstadt',
            beschreibung: 'Alle Dienste, Termine und Kurse des Ortsvereins',
            typ: 'organisation',
          }
        : account.role === 'trainer'
          ? {
              name: 'Ausbilderteam',
              beschreibung: 'Kurse und Fortbildungen der Ausbilder',
              typ: 'gruppe',
            }
          : {
              name: 'Bereitschaft Musterstadt',
              beschreibung: 'Dienstabende und Sanitätsdienste der Bereitschaft',
              typ: 'gruppe',
            };
    const calendars = [
      {
        name: 'Meine Termine',
        beschreibung: 'Dienste, Termine und Kurse, für die ich eingeteilt bin',
        typ: 'privat' as const,
      },
      second,
    ];
    for (const calendar of calendars) {
      const createdAt = ctx.recent(400);
      const attributes: KalenderAttributes = {
        ...calendar,
        farbe: random.pick(CALENDAR_COLOURS),
        ical_url: feedPath(account.feedHash),
        created_at: ctx.dateTime(createdAt),
      };
      ctx.put(
        'kalender',
        ctx.newId('kalender'),
        attributes,
        { user: { type: 'user', id: person.id } },
        createdAt,
      );
    }
  }
}

type NotificationDraft = Omit<BenachrichtigungAttributes, 'gelesen' | 'erstellt_am'>;

function storeNotifications(
  ctx: GenerationContext,
  personnel: Personnel,
  courses: CourseInfo[],
): void {
  const { random } = ctx;
  const upcoming = courses.filter(
    (c) => c.status === 'ready' && c.dates[0]!.from > ctx.anchorInstant,
  );
  const broadcasts: NotificationDraft[] = [
    {
      titel: 'Jahreshauptversammlung',
      text: 'Einladung zur Jahreshauptversammlung im Bürgerhaus. Bitte gebt bis Monatsende Bescheid, ob ihr kommt.',
      kategorie: 'termin',
      link: '/termine',
    },
    {
      titel: 'Helfer gesucht: Sanitätsdienst Stadtfest',
      text: 'Für das Stadtfest fehlen noch sechs Helferinnen und Helfer. Tragt euch bitte in die Dienstliste ein.',
      kategorie: 'dienst',
      link: '/dienste',
    },
    {
      titel: 'Wartungsarbeiten',
      text: 'Am Wochenende ist der Server zwischen 22 und 23 Uhr nicht erreichbar.',
      kategorie: 'system',
      link: '',
    },
  ];
  const personal = (person: Person): NotificationDraft[] => {
    const drafts: NotificationDraft[] = [
      {
        titel: 'Helferstunden freigegeben',
        text: `Hallo ${person.vorname}, deine Helferstunden wurden freigegeben.`,
        kategorie: 'stunden',
        link: '/helferstunden',
      },
      {
        titel: 'Erste-Hilfe-Nachweis läuft ab',
        text: 'Dein Erste-Hilfe-Nachweis läuft in den nächsten drei Monaten ab. Bitte melde dich zu einer Fortbildung an.',
        kategorie: 'system',
        link: '/personal/selbst',
      },
    ];
    for (const course of upcoming.filter((c) => c.trainerIds.includes(person.id)).slice(0, 3)) {
      drafts.push({
        titel: `Neue Anmeldung: ${course.courseNumber}`,
        text: `Für den Kurs „${course.title}“ am ${formatGermanDate(course.dates[0]!.from)} gibt es eine neue Anmeldung.`,
        kategorie: 'kurs',
        link: `/courses/${course.id}`,
      });
    }
    return drafts;
  };

  // A broadcast shares its notification number among all recipients ("<n>-<userId>").
  const recipients: [NotificationDraft, Person[]][] = [
    ...broadcasts.map((draft): [NotificationDraft, Person[]] => [draft, personnel.accounts]),
    ...personnel.accounts.flatMap((person) =>
      personal(person).map((draft): [NotificationDraft, Person[]] => [draft, [person]]),
    ),
  ];
  const notifications = recipients
    .map(([draft, people]) => ({ draft, people, createdAt: ctx.recent(60) }))
    .sort((a, b) => a.createdAt - b.createdAt);
  notifications.forEach(({ draft, people, createdAt }, index) => {
    for (const person of people) {
      const read = random.chance(0.5);
      const attributes: BenachrichtigungAttributes = {
        ...draft,
        gelesen: read,
        erstellt_am: ctx.dateTime(createdAt),
      };
      ctx.put(
        'benachrichtigung',
        `${index + 1}-${person.id}`,
        attributes,
        {},
        read ? ctx.past(createdAt + random.int(1, 72) * HOUR_MS) : createdAt,
      );
    }
  });
}

function formatGermanDate(ms: number): string {
  const [year, month, day] = formatBerlinDate(ms).split('-');
  return `${day}.${month}.${year}`;
}

const FORM_BASE = 'https://formulare.drk-musterstadt.example';

function storeForms(
  ctx: GenerationContext,
  personnel: Personnel,
  courses: CourseInfo[],
  events: EventRef[],
): void {
  const setUpAt = ctx.day(-200);
  const store = (
    objektTyp: FormularObjektTyp,
    objektId: string,
    titel: string,
    slug: string,
  ): void => {
    const attributes: FormularAttributes = {
      titel,
      aktion: {
        typ: 'link',
        url: `${FORM_BASE}/${slug}?typ=${objektTyp}&id=${objektId}`,
        methode: 'GET',
      },
      objekt_typ: objektTyp,
      objekt_id: objektId,
    };
    ctx.put('formular', ctx.newId('formular'), attributes, {}, setUpAt);
  };
  // Forms for the objects the demo shows first: the trainers' courses, the accounts' own records,
  // and a few services and appointments.
  const trainerIds = new Set(personnel.trainers.map((t) => t.id));
  const current = courses.filter((c) => c.dates.at(-1)!.to >= ctx.anchorInstant - 30 * DAY_MS);
  for (const course of current
    .filter((c) => c.trainerIds.some((id) => trainerIds.has(id)))
    .slice(0, 40)) {
    store('k', course.id, 'Teilnehmerliste (PDF)', 'teilnehmerliste');
    store('k', course.id, 'Bescheinigungen drucken', 'bescheinigungen');
  }
  for (const person of personnel.accounts) {
    store('u', person.id, 'Personalbogen', 'personalbogen');
    store('u', person.id, 'Datenschutzerklärung', 'datenschutz');
  }
  for (const event of events.filter((e) => e.type === 'dienst').slice(-10))
    store('d', event.id, 'Einsatzprotokoll', 'einsatzprotokoll');
  for (const event of events.filter((e) => e.type === 'termin').slice(-10))
    store('t', event.id, 'Anwesenheitsliste', 'anwesenheit');
  for (const materialId of ['1', '2', '3'])
    store('m', materialId, 'Prüfprotokoll Medizinprodukt', 'mpg-pruefung');
}
