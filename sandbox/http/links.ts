// Absolute URLs the sandbox writes into its documents: every resource's `links.self` (with the
// interface prefix, e.g. /core/v1), the private feed URLs and the request's own URL for lists.
import type { StoredResource } from '../data/store';
import { toOneId } from './records';

const parentId = (resource: StoredResource, name: string): string => toOneId(resource, name) ?? '_';

/**
 * Where each type lives. Types without an operation of their own (addresses, companies,
 * hour types, events) get a path in the same style so that every resource has a `self` link.
 */
const SELF_PATHS: Record<string, (resource: StoredResource) => string> = {
  user: (r) => `/personal/${r.id}`,
  organisation: () => '/organisation/selbst/stammdaten',
  orga: () => '/organisation/selbst/stammdaten',
  ausbildung: (r) => `/personal/${parentId(r, 'user')}/ausbildungen/${r.id}`,
  ueberpruefung: (r) => `/personal/${parentId(r, 'user')}/ueberpruefungen/${r.id}`,
  ehrung: (r) => `/personal/${parentId(r, 'user')}/ehrungen/${r.id}`,
  kalender: (r) => `/kalender/${r.id}`,
  helferstunden: (r) => `/helferstunden/${r.id}`,
  helferstunden_anlass: (r) => `/helferstunden/anlass/${r.id}`,
  helferstunden_typ: (r) => `/helferstunden/typen/${r.id}`,
  helferstunden_einstellungen: () => '/helferstunden/einstellungen/selbst',
  dienst: (r) => `/dienste/${r.id}`,
  termin: (r) => `/termine/${r.id}`,
  benachrichtigung: (r) => `/benachrichtigungen/${r.id}`,
  steuersatz: (r) => `/steuersaetze/${r.id}`,
  course: (r) => `/courses/${r.id}`,
  course_type: (r) => `/courses/types/${r.id}`,
  course_date: (r) => `/courses/${parentId(r, 'course')}/dates/${r.id}`,
  address: (r) => `/addresses/${r.id}`,
  participation: (r) => `/courses/${parentId(r, 'course')}/participations/${r.id}`,
  cancellation: (r) => `/cancellations/${r.id}`,
  company: (r) => `/companies/${r.id}`,
  uvt: (r) => `/uvts/${r.id}`,
  client: (r) => `/clients/${r.id}`,
  customfield: (r) => `/courses/${parentId(r, 'course')}/customfields/${r.id}`,
};

export class Links {
  /**
   * origin: `http://127.0.0.1:8787`, set once the server listens (routes run only after that);
   * prefix: `''` or `/core/v1`.
   */
  constructor(
    public origin: string,
    readonly prefix: string,
  ) {}

  /** The interface's base URL, the `{base_url}` of the seed. */
  get base(): string {
    return this.origin + this.prefix;
  }

  self(resource: StoredResource): string {
    const path = SELF_PATHS[resource.type];
    return this.base + (path ? path(resource) : `/${resource.type}/${resource.id}`);
  }

  /** The private iCal feed of the account with this secret. */
  feed(feedHash: string): string {
    return `${this.base}/ical/v1/veranstaltungen/private-${feedHash}/termine.ics`;
  }

  /**
   * The absolute URL of a request, from its raw `url` (path and query as received), with the
   * query percent-encoded as a URI must be: `filter[status]` becomes `filter%5Bstatus%5D`.
   */
  request(rawUrl: string): string {
    const url = new URL(this.origin + rawUrl);
    url.search = url.searchParams.toString();
    return url.toString();
  }
}
