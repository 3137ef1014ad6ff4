// Reading the bodies and query parameters of admin requests with zod: anything that does not fit
// (a wrong type, a member the schema does not know) is a 400 naming what was wrong.
import { z } from 'zod';
import { badRequest } from './errors';

function sentence(error: z.ZodError): string {
  const issues = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the body';
    return `${where}: ${issue.message}`;
  });
  return `The request does not fit: ${issues.join('; ')}.`;
}

/** The parsed body; a missing body reads as `{}` so that all-optional bodies may be left out. */
export function readBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw badRequest(sentence(result.error));
  return result.data;
}

/** Query parameters; the schema should be strict so unknown parameters are refused as well. */
export function readQuery<T extends z.ZodType>(schema: T, query: unknown): z.output<T> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw badRequest(sentence(result.error));
  return result.data;
}

/** A whole number from 0 written in a query parameter. */
export const countParameter = z
  .string()
  .regex(/^\d{1,15}$/, 'Expected a whole number from 0.')
  .transform(Number);
