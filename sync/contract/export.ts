// The contract's part for export and the private calendar feed (issue 13): what an export asks
// for (one schema for the command line, the desktop app and browser mode, so each gets the same
// file for the same request), the host calls' arguments, and what they answer. The engine is
// sync/export (exportData), the feed sync/pull/feed.ts; the session serves both
// (sync/host/session.ts).
// Imports zod only: the renderer (a browser) imports this file through sync/contract.ts.
import { z } from 'zod';

export const EXPORT_FORMATS = ['ics', 'csv', 'pdf'] as const;
export const EXPORT_SUBJECTS = [
  'courses',
  'hours',
  'events',
  'participants',
  'due',
  'certificates',
  'all',
] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportSubject = (typeof EXPORT_SUBJECTS)[number];

/** A real day of the calendar (2026-02-30 is none). */
function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A day of the calendar, YYYY-MM-DD. */
export const calendarDay = z.string().refine(isCalendarDay, {
  message: 'expected a date YYYY-MM-DD',
  params: { de: 'erwartet ein Datum JJJJ-MM-TT' },
});
const id = z.string().min(1).max(200);

export const exportRequestSchema = z
  .object({
    format: z.enum(EXPORT_FORMATS),
    /**
     * courses: one calendar entry (or CSV row) per course date; hours: volunteer-hour entries;
     * events: the private calendar feed's events; participants: one course's (CSV, or the PDF
     * attendance list); due: the trainings and checks that fall due by `until` (CSV or PDF, the
     * list personnel.due gives); certificates: one course's certificates of attendance, a PDF
     * page for each participant marked present; all: courses, hours and events in one calendar
     * (.ics only).
     */
    what: z.enum(EXPORT_SUBJECTS),
    /** The course: needed for participants, optional for courses (that course's dates only). */
    courseId: id.optional(),
    /** Certificates: this participant's alone (one of the course's, marked present). */
    participationId: id.optional(),
    /** First and last day (Berlin dates, both included) of course dates, hour entries and events. */
    from: calendarDay.optional(),
    until: calendarDay.optional(),
    /** Courses this person trains ('self': the signed-in user); absent: every course in the replica. */
    trainerId: z.union([id, z.literal('self')]).optional(),
    /** Hour entries of this person ('self': the signed-in user); absent: every entry in the replica. */
    userId: z.union([id, z.literal('self')]).optional(),
    /** Hour entries of this occasion (Anlass) only. */
    anlassId: id.optional(),
    /** Hour entries of this type only. */
    typId: id.optional(),
    /** Hour entries approved (true) or not yet (false); absent: both. */
    approved: z.boolean().optional(),
    /** Participants: cancelled ones too (CSV only; the attendance list never has them). */
    includeCancelled: z.boolean().default(false),
    /** Due: the people whose checks were never read too (after the others), not left out as clear. */
    includeUnread: z.boolean().default(true),
    /**
     * CSV: ';' with a decimal comma and German dates (dd.mm.yyyy), as German Excel and LibreOffice
     * open it; ',' with a decimal point and ISO dates (YYYY-MM-DD).
     */
    separator: z.enum([';', ',']).default(';'),
    /** The language of headers, titles and descriptions. */
    language: z.enum(['de', 'en']).default('de'),
  })
  .strict();

export type ExportRequestInput = z.input<typeof exportRequestSchema>;
export type ExportRequest = z.output<typeof exportRequestSchema>;

/** How an export reaches the person: a save dialog of the desktop app, or the bytes (a download). */
export const EXPORT_DELIVERIES = ['save', 'data'] as const;
export type ExportDelivery = (typeof EXPORT_DELIVERIES)[number];

/** The host calls' arguments (listed in sync/contract/host.ts's hostCalls). */
export const exportCalls = {
  /**
   * Writes a file from the replica alone (offline too). deliver 'save' (default where the host
   * has a save dialog: the desktop app): the dialog asks where, the answer says where it went or
   * that the person cancelled; 'data' (default in browser mode, and where there is no dialog):
   * the answer carries the file as base64, for the page to download.
   */
  'export.create': z.object({
    request: exportRequestSchema,
    deliver: z.enum(EXPORT_DELIVERIES).optional(),
  }),
  /** Where the private calendar feed stands (its address without its secret). */
  'feed.get': z.object({}),
  /**
   * Sets the private calendar feed's address (from the service's calendar settings; https, http
   * only on this computer), or removes it with null; fetched once at once when online, then by
   * every sync. Another address drops the old feed's events.
   */
  'feed.set': z.object({ url: z.string().max(2000).nullable() }),
} as const;

export interface ExportCreated {
  /** The suggested name ("kurse.ics", "anwesenheitsliste-EH-2026-17.pdf"). */
  fileName: string;
  mimeType: string;
  /** The file's size in bytes. */
  size: number;
  /** Entries, rows or participants written. */
  count: number;
  /** Nothing matched: the file is valid but holds no entries. */
  empty: boolean;
  /** The count in words: "42 Kurstermine" / "42 course dates". */
  counted: { de: string; en: string };
  /** Something to know about the result (e.g. no calendar feed set up). */
  note?: { de: string; en: string };
  /** deliver 'save': the path written, null when the person closed the dialog. */
  savedTo?: string | null;
  /** deliver 'save': the person closed the dialog; nothing was written. */
  cancelled?: boolean;
  /** deliver 'data': the file's bytes, base64. */
  base64?: string;
}

/** The private calendar feed as a person may see it: never its secret path. */
export interface FeedState {
  configured: boolean;
  /** Scheme and host only: "https://host/…"; null when none is set up. */
  address: string | null;
  /** When the feed was last read successfully; null: not yet. */
  lastFetchedAt: string | null;
  /** When the last fetch was tried (it may have failed: see problem). */
  lastAttemptAt: string | null;
  /** Events in the replica now (of the last readable fetch). */
  events: number;
  /** Why the last fetch brought nothing new, in words (the events so far are kept); null: fine. */
  problem: { de: string; en: string } | null;
}

export interface ExportCallResults {
  'export.create': ExportCreated;
  'feed.get': FeedState;
  'feed.set': FeedState;
}
