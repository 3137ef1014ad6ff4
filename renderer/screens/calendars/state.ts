// The Kalender workspace's view (a day or a week) and the day it shows, kept outside its
// components so that switching to another workspace and back finds them as they were; and the
// day arithmetic of the views (days as the service means them, YYYY-MM-DD).
import { create } from 'zustand';
import { serviceDay } from '../../format';

export type CalendarView = 'day' | 'week';

interface CalendarsUi {
  view: CalendarView;
  /** The day shown, or a day of the week shown. */
  anchor: string;
  setView(view: CalendarView): void;
  setAnchor(anchor: string): void;
}

export const useCalendarsUi = create<CalendarsUi>()((set) => ({
  view: 'week',
  anchor: serviceDay(new Date()),
  setView: (view) => set({ view }),
  setAnchor: (anchor) => set({ anchor }),
}));

const DAY_MS = 86_400_000;

/** Today as the service means days (Europe/Berlin). */
export const serviceToday = () => serviceDay(new Date());

/** The day `days` after `day` (before, when negative). Noon UTC: no zone or DST moves a day. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the week of `day` (weeks run Monday to Sunday, as in Germany). */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The first and last day a view shows around `anchor`. */
export function rangeOf(view: CalendarView, anchor: string): { from: string; until: string } {
  if (view === 'day') return { from: anchor, until: anchor };
  const from = mondayOf(anchor);
  return { from, until: addDays(from, 6) };
}

/** The days from..until, both included. */
export function daysOf(from: string, until: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= until; day = addDays(day, 1)) days.push(day);
  return days;
}
