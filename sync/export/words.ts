// The words of exported files, German first: column heads, descriptions, states, file names;
// and a calendar day as each language writes it.
export type Language = 'de' | 'en';

/** A day YYYY-MM-DD as German writes it: dd.mm.yyyy. */
export const germanDay = (iso: string) => iso.split('-').reverse().join('.');

/** A day YYYY-MM-DD as the language writes it (German dd.mm.yyyy, English as it is). */
export const dayIn = (language: Language, iso: string) =>
  language === 'de' ? germanDay(iso) : iso;

export const WORDS = {
  de: {
    courseNumber: 'Kursnummer',
    title: 'Titel',
    courseType: 'Kursart',
    client: 'Auftraggeber',
    participants: 'Teilnehmende',
    maxParticipants: 'Max. Teilnehmende',
    trainers: 'Ausbilder/in',
    status: 'Status',
    location: 'Ort',
    date: 'Datum',
    start: 'Beginn',
    end: 'Ende',
    dateOf: (n: number, of: number) => `Termin ${n} von ${of}`,
    dayOf: (n: number, of: number) => `Tag ${n} von ${of}`,
    dayColumn: 'Termin',
    /** The courses CSV's "Termin": words, so no spreadsheet reads "1/2" as a date. */
    dayNumber: (n: number, of: number) => `${n} von ${of}`,
    seats: (n: number, max: number | null) => (max ? `${n} von ${max} Plätzen` : String(n)),
    cancelledPrefix: 'Abgesagt: ',
    course: 'Kurs',
    hours: 'Helferstunden',
    hoursUnit: (value: string) => `${value} Std.`,
    person: 'Person',
    occasion: 'Anlass',
    occasionKind: 'Art des Anlasses',
    occasionKinds: {
      dienst: 'Dienst',
      termin: 'Termin',
      kurs: 'Kurs',
      sonstiges: 'Sonstiges',
    } as Record<string, string>,
    hourType: 'Typ',
    stunden: 'Stunden',
    approved: 'Freigegeben',
    approvedWords: ['freigegeben', 'noch nicht freigegeben'] as const,
    yes: 'ja',
    no: 'nein',
    number: 'Nr.',
    memberNumber: 'Mitgliedsnummer',
    kind: 'Art',
    dueKinds: { training: 'Ausbildung', check: 'Prüfung' },
    dueOn: 'Fällig am',
    expired: 'Abgelaufen',
    checksAsOf: 'Stand der Prüfungen',
    neverRead: 'nie gelesen',
    lastName: 'Nachname',
    firstName: 'Vorname',
    company: 'Firma',
    birthday: 'Geburtsdatum',
    email: 'E-Mail',
    phone: 'Telefon',
    attended: 'Anwesend',
    summary: 'Titel',
    category: 'Kategorie',
    description: 'Beschreibung',
    allDay: 'Ganztägig',
    endDate: 'Enddatum',
    calendar: {
      courses: 'Kurse',
      hours: 'Helferstunden',
      events: 'Kalender-Feed',
      all: 'Kalender',
    },
    courseStatus: {
      draft: 'Entwurf',
      ready: 'bereit',
      cancelled: 'abgesagt',
      completed: 'abgeschlossen',
    } as Record<string, string>,
    participationStatus: {
      registered: 'angemeldet',
      confirmed: 'bestätigt',
      attended: 'teilgenommen',
      absent: 'abwesend',
      cancelled: 'storniert',
    } as Record<string, string>,
    files: {
      courses: 'kurse',
      course: 'kurs',
      hours: 'helferstunden',
      events: 'termine',
      all: 'vorort',
      participants: 'teilnehmende',
      attendance: 'anwesenheitsliste',
      certificates: 'teilnahmebescheinigungen',
      due: 'faellig',
    },
  },
  en: {
    courseNumber: 'Course number',
    title: 'Title',
    courseType: 'Course type',
    client: 'Client',
    participants: 'Participants',
    maxParticipants: 'Max. participants',
    trainers: 'Trainers',
    status: 'Status',
    location: 'Location',
    date: 'Date',
    start: 'Start',
    end: 'End',
    dateOf: (n: number, of: number) => `Date ${n} of ${of}`,
    dayOf: (n: number, of: number) => `day ${n} of ${of}`,
    dayColumn: 'Date no.',
    dayNumber: (n: number, of: number) => `${n} of ${of}`,
    seats: (n: number, max: number | null) => (max ? `${n} of ${max} places` : String(n)),
    cancelledPrefix: 'Cancelled: ',
    course: 'Course',
    hours: 'Volunteer hours',
    hoursUnit: (value: string) => `${value} h`,
    person: 'Person',
    occasion: 'Occasion',
    occasionKind: 'Kind of occasion',
    occasionKinds: {
      dienst: 'Duty',
      termin: 'Appointment',
      kurs: 'Course',
      sonstiges: 'Other',
    } as Record<string, string>,
    hourType: 'Type',
    stunden: 'Hours',
    approved: 'Approved',
    approvedWords: ['approved', 'not approved yet'] as const,
    yes: 'yes',
    no: 'no',
    number: 'No.',
    memberNumber: 'Member number',
    kind: 'Kind',
    dueKinds: { training: 'Training', check: 'Check' },
    dueOn: 'Due on',
    expired: 'Expired',
    checksAsOf: 'Checks as of',
    neverRead: 'never read',
    lastName: 'Last name',
    firstName: 'First name',
    company: 'Company',
    birthday: 'Date of birth',
    email: 'Email',
    phone: 'Phone',
    attended: 'Attended',
    summary: 'Title',
    category: 'Category',
    description: 'Description',
    allDay: 'All day',
    endDate: 'End date',
    calendar: {
      courses: 'Courses',
      hours: 'Volunteer hours',
      events: 'Calendar feed',
      all: 'Calendar',
    },
    courseStatus: {
      draft: 'draft',
      ready: 'ready',
      cancelled: 'cancelled',
      completed: 'completed',
    } as Record<string, string>,
    participationStatus: {
      registered: 'registered',
      confirmed: 'confirmed',
      attended: 'attended',
      absent: 'absent',
      cancelled: 'cancelled',
    } as Record<string, string>,
    files: {
      courses: 'courses',
      course: 'course',
      hours: 'volunteer-hours',
      events: 'events',
      all: 'vorort',
      participants: 'participants',
      attendance: 'attendance-list',
      certificates: 'certificates-of-attendance',
      due: 'due',
    },
  },
};

/** How many of what an export wrote, in both languages: "42 Kurstermine" / "42 course dates". */
export function countWords(
  what: 'courses' | 'hours' | 'events' | 'participants' | 'due' | 'certificates' | 'all',
  count: number,
): { de: string; en: string } {
  const one = count === 1;
  const n = count.toLocaleString('de-DE');
  const m = count.toLocaleString('en-GB');
  switch (what) {
    case 'courses':
      return {
        de: `${n} ${one ? 'Kurstermin' : 'Kurstermine'}`,
        en: `${m} ${one ? 'course date' : 'course dates'}`,
      };
    case 'hours':
      return {
        de: `${n} ${one ? 'Helferstunden-Eintrag' : 'Helferstunden-Einträge'}`,
        en: `${m} ${one ? 'hour entry' : 'hour entries'}`,
      };
    case 'events':
      return { de: `${n} ${one ? 'Termin' : 'Termine'}`, en: `${m} ${one ? 'event' : 'events'}` };
    case 'certificates':
      return {
        de: `${n} ${one ? 'Teilnahmebescheinigung' : 'Teilnahmebescheinigungen'}`,
        en: `${m} ${one ? 'certificate of attendance' : 'certificates of attendance'}`,
      };
    case 'participants':
      return {
        de: `${n} ${one ? 'Teilnehmende/r' : 'Teilnehmende'}`,
        en: `${m} ${one ? 'participant' : 'participants'}`,
      };
    case 'due':
      return { de: `${n} ${one ? 'Person' : 'Personen'}`, en: `${m} ${one ? 'person' : 'people'}` };
    case 'all':
      return {
        de: `${n} ${one ? 'Eintrag' : 'Einträge'}`,
        en: `${m} ${one ? 'entry' : 'entries'}`,
      };
  }
}

/** A piece of a file name: letters, digits, dot, dash and underscore only. */
export function fileNamePart(value: string): string {
  return (
    value
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'x'
  );
}
