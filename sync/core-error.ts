// A failure the core reports to a person: a code for programs and the words for people, German
// first. The dispatcher turns it into the contract's CoreError value; nothing else escapes.

import type { CoreErrorCode } from './contract';

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

export const notFound = (de: string, en: string) => new CoreFailure('not_found', { de, en });
export const notAllowed = (de: string, en: string) => new CoreFailure('not_allowed', { de, en });
export const invalid = (de: string, en: string, path = '') =>
  new CoreFailure('invalid_arguments', { de, en }, [{ path, message: en }]);
