// The service's local time (Europe/Berlin) for the queries that reason about days: its date-times
// carry their offset (2026-03-01T08:00:00+01:00), so their first 10 characters are the service's
// day and their first 19 its wall clock, comparable as strings with what these answer.

const WALL_CLOCK = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The instant as the service's wall clock, `YYYY-MM-DDTHH:MM:SS`. */
export function serviceWallClock(instant: Date): string {
  const parts = Object.fromEntries(
    WALL_CLOCK.formatToParts(instant).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The instant's day on the service, `YYYY-MM-DD`. */
export function serviceDay(instant: Date): string {
  return serviceWallClock(instant).slice(0, 10);
}

/** A calendar day `days` later (earlier when negative). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}
