// Calendars of the user (`/kalender`).
import type { z } from 'zod';
import { dateTime, resourceSchema, text } from './common';

export const kalenderResource = resourceSchema('kalender', {
  name: text,
  farbe: text.optional(),
  beschreibung: text.optional(),
  typ: text.optional(),
  ical_url: text.optional(),
  created_at: dateTime.optional(),
});
export type KalenderResource = z.infer<typeof kalenderResource>;
