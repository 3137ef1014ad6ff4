// Calendars of the user (`/kalender`), read tolerantly (see ./tolerance); nothing required.
import type { z } from 'zod';
import { dateTime, resourceSchema, text } from './common';

export const kalenderResource = resourceSchema('kalender', {
  name: text,
  farbe: text,
  beschreibung: text,
  typ: text,
  ical_url: text,
  created_at: dateTime,
});
export type KalenderResource = z.infer<typeof kalenderResource>;
