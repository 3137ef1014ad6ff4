// The courses workspace's own state, kept outside its components so that switching to another
// workspace (Alt+2) and back finds the same filter and the same open course.
import { create } from 'zustand';

export interface CourseFilter {
  search: string;
  /** YYYY-MM-DD; '' = open. */
  from: string;
  until: string;
  /** "Nur meine Kurse"; null: not decided yet (on when the signed-in user trains any course). */
  mine: boolean | null;
}

/** The office's filter of all courses (one row per course). */
export interface OfficeCourseFilter {
  search: string;
  /** YYYY-MM-DD; '' = open. */
  from: string;
  until: string;
  /** '' = any. */
  trainerId: string;
  courseTypeId: string;
  clientId: string;
}

export interface OpenCourse {
  courseId: string;
  /** The date row it was opened from (the list marks it). */
  dateId: string | null;
}

interface CoursesUi {
  filter: CourseFilter;
  /** The date range has been set (the defaults, or by the person): the list may be read. */
  rangeSet: boolean;
  open: OpenCourse | null;
  office: OfficeCourseFilter;
  /** The office's date range has been set (the defaults, or by the person). */
  officeRangeSet: boolean;
  /** A course's facts unfolded (folded to one line by default: the participants come first). */
  factsOpen: boolean;
  setFilter(change: Partial<CourseFilter>): void;
  setOpen(open: OpenCourse | null): void;
  setOffice(change: Partial<OfficeCourseFilter>): void;
  setFactsOpen(open: boolean): void;
}

export const useCoursesUi = create<CoursesUi>()((set) => ({
  filter: { search: '', from: '', until: '', mine: null },
  rangeSet: false,
  open: null,
  office: { search: '', from: '', until: '', trainerId: '', courseTypeId: '', clientId: '' },
  officeRangeSet: false,
  factsOpen: false,
  setFilter: (change) =>
    set((state) => ({
      filter: { ...state.filter, ...change },
      rangeSet: state.rangeSet || change.from !== undefined || change.until !== undefined,
    })),
  setOpen: (open) => set({ open }),
  setOffice: (change) =>
    set((state) => ({
      office: { ...state.office, ...change },
      officeRangeSet:
        state.officeRangeSet || change.from !== undefined || change.until !== undefined,
    })),
  setFactsOpen: (factsOpen) => set({ factsOpen }),
}));

/** A day YYYY-MM-DD moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** A day YYYY-MM-DD moved by whole months (the 31st becomes the month's last day). */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(date, last)))
    .toISOString()
    .slice(0, 10);
}
