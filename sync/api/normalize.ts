// The real service writes "no value" as "" and old records carry MySQL zero dates; the replica
// stores all of them as absent, so every reader sees one representation of "empty".

const EMPTY_VALUES: ReadonlySet<unknown> = new Set([
  '',
  '0000-00-00',
  '0000-00-00 00:00:00',
  '0000-00-00T00:00:00',
]);

/** `""`, `0000-00-00` and `0000-00-00 00:00:00` (and `undefined`) become null; anything else is kept. */
export function normalizeEmpty<T>(value: T): Exclude<T, ''> | null {
  if (value === undefined || value === null || EMPTY_VALUES.has(value)) return null;
  return value as Exclude<T, ''>;
}
