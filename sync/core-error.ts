// A failure the core reports to a person: a code for programs and the words for people, German
// first. The dispatcher turns it into the contract's CoreError value; nothing else escapes.

import { z } from 'zod';
import type { CoreError, CoreErrorCode } from './contract';

export class CoreFailure extends Error {
  override name = 'CoreFailure';
  constructor(
    readonly code: CoreErrorCode,
    readonly messages: { de: string; en: string },
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(messages.en);
  }
}

export function toCoreError(failure: CoreFailure): CoreError {
  return {
    code: failure.code,
    message: failure.messages,
    ...(failure.issues.length ? { issues: failure.issues } : {}),
  };
}

const germanIssues = z.locales.de().localeError;

/**
 * Arguments a schema refused, in both languages: each issue's path and words, German from a
 * schema's own `params.de` or zod's German locale. For a new call and for an edited operation alike.
 */
export function refusedArguments(
  name: string,
  schema: z.ZodType,
  args: unknown,
  error: z.ZodError,
): CoreFailure {
  const path = (issue: z.core.$ZodIssue) => issue.path.map(String).join('.');
  const issues = error.issues.map((issue) => ({ path: path(issue), message: issue.message }));
  const german = schema.safeParse(args, { error: germanIssues });
  const germanList = (german.success ? [] : german.error.issues).map((issue) => ({
    path: path(issue),
    message: (issue as { params?: { de?: string } }).params?.de ?? issue.message,
  }));
  const words = (list: { path: string; message: string }[], whole: string) =>
    list.map((i) => `${i.path || whole}: ${i.message}`).join('; ');
  return new CoreFailure(
    'invalid_arguments',
    {
      de: `Ungültige Argumente für ${name}: ${words(germanList.length ? germanList : issues, '(Argumente)')}`,
      en: `Invalid arguments for ${name}: ${words(issues, '(arguments)')}`,
    },
    issues,
  );
}

export const notFound = (de: string, en: string) => new CoreFailure('not_found', { de, en });
export const notAllowed = (de: string, en: string) => new CoreFailure('not_allowed', { de, en });
export const invalid = (de: string, en: string, path = '') =>
  new CoreFailure('invalid_arguments', { de, en }, [{ path, message: en }]);
