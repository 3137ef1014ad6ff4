// Migration 11: repeating events of the private calendar feed shown on every day they occur (issue
// 23). A repeating event's row keeps its VEVENT with the VTIMEZONEs it names (ical: one small
// VCALENDAR text), which the feed.events query expands with ical.js in the event's own zone, and
// the last day its series can reach (last_day; NULL: no end), so a series that ended is not expanded.
//
// Rows of an older replica have neither: they show on their first day as before, until the next
// fetch of the feed fills them. Nothing needs clearing for that: every sync fetches the feed
// whole (no conditional request, sync/pull/feed-sync.ts) and replaces every row.

export default `
  ALTER TABLE feed_events ADD COLUMN ical TEXT;
  ALTER TABLE feed_events ADD COLUMN last_day TEXT;
  `;
