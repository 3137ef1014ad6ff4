// Text as a search compares it: lower case and without diacritics, ß as ss, so "muller",
// "MÜLLER" and "Müller" find each other. One rule for the replica's search columns, its SQL
// function (sync/db/search-fold.ts) and what a person types. Imports nothing.

export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('de').replace(/ß/g, 'ss');
}

/**
 * Whether a course is found by a search: the search anywhere in its title or its number, folded
 * ("2026-46" and "fb-2026" find "EH-FB-2026-46"). The SQL of courses.list and courses.days says
 * the same (sync/queries/courses.ts; a test keeps the two equal); a list narrows its rows with it
 * while the core's answer to a search typed further is on its way.
 */
export function courseFoundBy(
  search: string,
): (course: { title: string | null; courseNumber: string | null }) => boolean {
  const text = foldForSearch(search.trim());
  return (course) =>
    (course.title !== null && foldForSearch(course.title).includes(text)) ||
    (course.courseNumber !== null && foldForSearch(course.courseNumber).includes(text));
}
