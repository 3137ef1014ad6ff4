// Text as a search compares it (foldForSearch, sync/contract/search-text.ts) as an SQL function:
// SQLite's LIKE and lower() fold ASCII only, so the replica's connection gets the same folding
// for searches anywhere in a value.
import { foldForSearch } from '../contract/search-text';
import type { Sqlite } from './sqlite';

export { foldForSearch };

/** The SQL function that folds a value as foldForSearch does (NULL stays NULL). */
export const FOLD_FUNCTION = 'vorort_fold';

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
