// Text as a search compares it: lower case and without diacritics, so "muller", "MÜLLER" and
// "Müller" find each other. SQLite's LIKE and lower() fold ASCII only: the replica's connection
// gets the same folding as an SQL function, for searches anywhere in a value.
import type { Sqlite } from './sqlite';

/** The SQL function that folds a value as foldForSearch does (NULL stays NULL). */
export const FOLD_FUNCTION = 'vorort_fold';

export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('de').replace(/ß/g, 'ss');
}

/** Folded values by their text: a search folds every course's title again, and titles repeat. */
const folded = new Map<string, string>();
const FOLDED_KEPT = 20_000;

function foldRemembered(text: string): string {
  let result = folded.get(text);
  if (result === undefined) {
    if (folded.size >= FOLDED_KEPT) folded.clear();
    result = foldForSearch(text);
    folded.set(text, result);
  }
  return result;
}

export function registerSearchFold(sqlite: Sqlite): void {
  sqlite.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? foldRemembered(value) : null,
  );
}
