// The rows the contract's reads answer with (people, courses, participations, hours): plain data
// shapes shared by the core, which builds them, and the screens, which show them. Re-exported by
// ../contract.ts; QueryResults there says which read answers which.
export interface Paged<T> {
  total: number;
  items: T[];
}

/** A record changed here and not yet accepted by the service (the outbox sends it); null otherwise. */
export type LocalState = 'created' | 'changed' | 'deleted' | null;

export interface PersonListItem {
  id: string;
  localState: LocalState;
  vorname: string;
  nachname: string;
  status: string | null;
  email: string | null;
  ort: string | null;
  mitgliednr: string | null;
  qualifikationen: string[];
}

export interface PersonDetail extends PersonListItem {
  attributes: Record<string, unknown>;
  organisation: string | null;
  ausbildungen: {
    id: string;
    localState: LocalState;
    bezeichnung: string | null;
    datum: string | null;
    gueltig_bis: string | null;
  }[];
  ueberpruefungen: {
    id: string;
    bezeichnung: string | null;
    bestanden: boolean | null;
    letzte_pruefung: string | null;
    naechste_pruefung: string | null;
  }[];
  ehrungen: { id: string; bezeichnung: string | null; datum: string | null }[];
  /** When the service last confirmed this person with their checks and honours (the screen's "as of"); null: not yet. */
  confirmedAt: string | null;
}

/** A training or check that falls due (personnel.due). */
export interface DueEntry {
  kind: 'training' | 'check';
  id: string;
  bezeichnung: string | null;
  /** The training's gueltig_bis or the check's naechste_pruefung (YYYY-MM-DD). */
  due: string;
  /** Before today. */
  expired: boolean;
}

/** A person in the due list, with what falls due (none: listed because never read). */
export interface DuePerson {
  id: string;
  vorname: string;
  nachname: string;
  mitgliednr: string | null;
  status: string | null;
  /** When the service last confirmed the person's checks here; null: never read. */
  checksConfirmedAt: string | null;
  entries: DueEntry[];
}

export interface CourseListItem {
  id: string;
  localState: LocalState;
  title: string | null;
  courseNumber: string | null;
  status: string | null;
  courseType: string | null;
  firstDate: string | null;
  lastDate: string | null;
  city: string | null;
  maxParticipants: number | null;
  /** Participations in the replica that are not cancelled. */
  participants: number;
  /** The client's name (the company or body that ordered the course). */
  client: string | null;
}

/** One date of a course, with its course's list fields (courses.days). */
export interface CourseDayItem extends Omit<CourseListItem, 'id'> {
  courseId: string;
  dateId: string;
  from: string | null;
  to: string | null;
  /** This date's place among the course's dates (1-based), and how many it has. */
  dayNumber: number;
  dayCount: number;
}

export interface CourseDetail extends Omit<CourseListItem, 'client'> {
  attributes: Record<string, unknown>;
  dates: { id: string; from: string | null; to: string | null }[];
  location: Record<string, unknown> | null;
  client: { id: string; name: string | null } | null;
  trainers: { id: string; name: string | null }[];
  customfields: {
    id: string;
    localState: LocalState;
    name: string | null;
    fieldType: string | null;
    attributes: Record<string, unknown>;
  }[];
  /** When the service last confirmed this course with its participants and custom fields (the screen's "as of"); null: not yet. */
  confirmedAt: string | null;
}

export interface ParticipationItem {
  id: string;
  localState: LocalState;
  firstName: string | null;
  lastName: string | null;
  status: string | null;
  attended: boolean | null;
  /** The company's name; a company created with this participation (not sent yet) has it too. */
  company: string | null;
  /** The UVT's short name. */
  uvt: string | null;
  /** The company's id (`new-…` while a company created with the participation is not sent). */
  companyId: string | null;
  uvtId: string | null;
  attributes: Record<string, unknown>;
}

export interface HoursItem {
  id: string;
  localState: LocalState;
  userId: string | null;
  userName: string | null;
  von: string | null;
  bis: string | null;
  stunden: number | null;
  freigegeben: boolean | null;
  anlass: string | null;
  anlassTyp: string | null;
  typ: string | null;
  /** The occasion's and the type's ids (an edit form's choices). */
  anlassId: string | null;
  typId: string | null;
  bemerkung: string | null;
  anfahrtKm: number | null;
}

export interface HoursSummary {
  totalStunden: number;
  entries: number;
  byTyp: { typ: string | null; stunden: number; entries: number }[];
}

/** The totals of a filter of hours (hours.totals). */
export interface HoursTotals {
  entries: number;
  stunden: number;
  /** The people with entries in the filter (byUser lists the first `limit`). */
  persons: number;
  byUser: { userId: string | null; userName: string | null; stunden: number; entries: number }[];
  byTyp: { typId: string | null; typ: string | null; stunden: number; entries: number }[];
}

/** The own volunteer-hour settings (hours.settings). */
export interface HoursSettings {
  /** May one enter one's own hours. */
  eigeneStundenErfassen: boolean | null;
  /** Do one's own entries need an approval. */
  freigabeErforderlich: boolean | null;
  /** The type a new entry takes unless another is chosen. */
  standardTypId: string | null;
  anfahrtErfassen: boolean | null;
  /** What the free number field means ("Patientenkontakte"). */
  zahlenfeldBezeichnung: string | null;
  /** The types that take new entries (the active ones), by name. */
  activeTypes: { id: string; bezeichnung: string | null }[];
}
