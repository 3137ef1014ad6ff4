// Text as a search compares it: lower case and without diacritics, ß as ss, so "muller",
// "MÜLLER" and "Müller" find each other. One rule for the replica's search columns, its SQL
// function (sync/db/search-fold.ts) and what a person types. Imports nothing.

export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('de').replace(/ß/g, 'ss');
}
