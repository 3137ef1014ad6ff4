// Building request addresses. The base URL may carry a path (the real service lives under
// /core/v1), so operation paths are always resolved *below* it, never against the origin.

export type QueryValue = string | number | boolean | readonly string[] | undefined;
export type Query = Record<string, QueryValue>;

/** The base URL with a trailing slash, so relative resolution keeps its whole path. */
export function normalizeBase(baseUrl: string): URL {
  const base = new URL(baseUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return base;
}

/**
 * `path` ("/personal/selbst") below `base`, with `query`. Lists become comma-separated values
 * (`include=anlass,typ`, `filter[status]=aktiv,extern`); undefined values and empty lists are left out.
 */
export function buildUrl(base: URL, path: string, query: Query = {}): URL {
  const url = new URL(path.replace(/^\/+/, ''), base);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'object') {
      if (value.length > 0) params.append(key, value.join(','));
    } else {
      params.append(key, String(value));
    }
  }
  // URLSearchParams escapes the brackets of JSON:API's `filter[...]` keys. Servers decode that,
  // but the service documents the literal form, and logs read better with it; brackets are
  // legal in a query string (WHATWG URL leaves them alone).
  url.search = params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
  return url;
}

/**
 * Resolves a `links.next` value: absolute, root-relative ("/core/v1/personal?..."), or relative
 * to the base ("personal?..."). A root-relative link that does not start with the base's path is
 * read as relative to the base, so a prefix is never lost. Returns null for a link to another
 * origin: the token must not travel there.
 */
export function resolveLink(base: URL, link: string): URL | null {
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) url = new URL(link);
  else if (link.startsWith('/') && !link.startsWith('//') && !link.startsWith(base.pathname)) {
    url = new URL(link.slice(1), base);
  } else url = new URL(link, base);
  return url.origin === base.origin ? url : null;
}

/** The interface's date-time filter format 'Y-m-dTH:i:sP' in UTC, seconds precision: 2026-03-01T08:00:00+00:00. */
export function formatDateTime(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError('Invalid date for a date-time filter');
  return `${instant.toISOString().slice(0, 19)}+00:00`;
}

/** A filter value given as a Date or already as the service's string. */
export function dateTimeParam(value: Date | string | undefined): string | undefined {
  return value instanceof Date ? formatDateTime(value) : value;
}
