// Id ordering shared by the store's sorted lists: the service's ids are numeric strings (users:
// 32 hex characters, notifications "<n>-<userId>"), and lists answer in ascending id order.

const NUMERIC_PREFIX = /^(\d+)(?:-(.*))?$/;

interface IdKey {
  /** Leading number without leading zeros, or null when the id is not numeric. */
  digits: string | null;
  rest: string;
}

function idKey(id: string): IdKey {
  const match = NUMERIC_PREFIX.exec(id);
  if (!match) return { digits: null, rest: id };
  return { digits: match[1]!.replace(/^0+(?=\d)/, ''), rest: match[2] ?? '' };
}

function compareKeys(a: string, ka: IdKey, b: string, kb: IdKey): number {
  if (a === b) return 0;
  if (ka.digits !== null && kb.digits !== null) {
    const byNumber =
      ka.digits.length - kb.digits.length ||
      compareStrings(ka.digits, kb.digits) ||
      compareStrings(ka.rest, kb.rest);
    return byNumber || compareStrings(a, b);
  }
  if (ka.digits !== null) return -1;
  if (kb.digits !== null) return 1;
  return compareStrings(a, b);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Total order on ids: numeric ids (and "<n>-<suffix>") numerically, then by suffix; all of
 * them before non-numeric ids (hex user ids, client-generated ids), which sort as strings.
 */
export function compareIds(a: string, b: string): number {
  return compareKeys(a, idKey(a), b, idKey(b));
}

/** Items in compareIds order; parses each id once (sorting 100,000 records stays fast). */
export function sortById<T extends { id: string }>(items: Iterable<T>): T[] {
  const keyed = Array.from(items, (item) => ({ item, key: idKey(item.id) }));
  keyed.sort((a, b) => compareKeys(a.item.id, a.key, b.item.id, b.key));
  return keyed.map((entry) => entry.item);
}

/** The number an id counts from ("17" → 17, "17-<userId>" → 17), or null for non-numeric ids. */
export function idNumber(id: string): number | null {
  const match = NUMERIC_PREFIX.exec(id);
  return match ? Number(match[1]) : null;
}
