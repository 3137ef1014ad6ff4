// Paging of lists, off by default as on the real service (which answers a list in one
// response). With --page-size N every JSON:API list pages by number:
//   page[number]  1-based page, default 1; past the last page the data is empty
//   page[size]    records per page, default N; larger values are lowered to N
// `links.next` (absolute, every other query parameter kept) is present while more remain, and
// `links.first`/`links.prev` help clients that walk back. Without --page-size the page
// parameters are accepted and ignored, as a real service that does not page would.
import type { Query } from './query';

export interface Page<T> {
  items: readonly T[];
  links: Record<string, string>;
}

function withPage(requestUrl: string, number: number, size: number | undefined): string {
  const url = new URL(requestUrl);
  url.searchParams.set('page[number]', String(number));
  if (size !== undefined) url.searchParams.set('page[size]', String(size));
  return url.toString();
}

export function paginate<T>(
  items: readonly T[],
  query: Query,
  requestUrl: string,
  pageSize: number | undefined,
): Page<T> {
  if (pageSize === undefined) return { items, links: { self: requestUrl } };
  const number = query.positiveInteger('page[number]') ?? 1;
  const requestedSize = query.positiveInteger('page[size]');
  const size = Math.min(requestedSize ?? pageSize, pageSize);
  const start = (number - 1) * size;
  const links: Record<string, string> = {
    self: requestUrl,
    first: withPage(requestUrl, 1, requestedSize),
  };
  if (number > 1) links.prev = withPage(requestUrl, number - 1, requestedSize);
  if (start + size < items.length) links.next = withPage(requestUrl, number + 1, requestedSize);
  return { items: items.slice(start, start + size), links };
}
