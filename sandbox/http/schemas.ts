// zod building blocks shared by the input schemas of every area: the service's date and
// date-time formats, `""` for empty values, and JSON:API relationship objects.
import { z } from 'zod';
import { isDate, isDateTime } from './berlin-time';

export const date = z.string().refine(isDate, 'Expected a date YYYY-MM-DD.');
/** Personnel dates are `""` when empty (as the service writes them). */
export const dateOrEmpty = z
  .string()
  .refine((value) => value === '' || isDate(value), 'Expected a date YYYY-MM-DD or "".');
export const dateTime = z
  .string()
  .refine(
    isDateTime,
    'Expected an ISO 8601 date-time with offset, e.g. 2026-03-01T08:00:00+01:00.',
  );
export const emailOrEmpty = z.union([z.literal(''), z.email('Expected an e-mail address or "".')]);
export const nonEmptyText = z.string().trim().min(1, 'Must not be empty.');
/** Numbers the service stores as floats; NaN and infinities do not survive JSON anyway. */
export const amount = z.number().min(0, 'Must not be negative.');

const identifier = <T extends string>(type: T) =>
  z.strictObject({
    type: z.literal(type, `Expected a resource of type "${type}".`),
    id: z.string().min(1, 'The id must not be empty.'),
  });

export const toOne = <T extends string>(type: T) => z.strictObject({ data: identifier(type) });
export const toOneOrNull = <T extends string>(type: T) =>
  z.strictObject({ data: identifier(type).nullable() });
export const toMany = <T extends string>(type: T) =>
  z.strictObject({ data: z.array(identifier(type)) });
