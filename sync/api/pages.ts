// Lists as pages. The real service answers a list in one response, but the client follows
// `links.next` wherever it appears (DESIGN rule 11), so a paging service works the same way.
// A paged answer is read twice (see sync/api/core.ts): the pages of the second pass are marked
// `verification` and hold only what the first pass did not give, so the pages of one list name
// each record once and their union is what the service listed; a consumer that removes what a
// list does not name, or moves a watermark, reads every page of both passes (as collectPages does).
import type { QuarantinedRecord } from './document';
import type { Resource } from './schemas/common';

export type { QuarantinedRecord } from './document';

/** What the tolerant reader set aside or converted in an answer (DESIGN rule 14). */
interface ReadReport {
  /** Resources of the answer that could not be read: not in `data`/`included`. */
  quarantined: QuarantinedRecord[];
  /** Attribute values converted from another JSON type or dropped as unreadable. */
  conversions: number;
}

export interface Page<R> extends ReadReport {
  data: R[];
  included: Resource[];
  meta?: Record<string, unknown>;
  /** The service's clock when it answered this page (`Date` header), null when absent. */
  serverDate: Date | null;
  url: string;
  /** Digest of this page's bytes, when asked for (RequestOptions.withDigest, knownDigest). */
  digest?: string;
  /** The answer equals the one whose digest the caller passed: `data` is empty and `meta` absent, keep what you have. */
  unchanged?: boolean;
  /**
   * A page of the verification pass of a paged answer: only records (and included resources)
   * that no earlier page gave, e.g. one that a deletion between two pages of the first pass
   * shifted out of sight. Its `serverDate` is not the answer's clock (the first page's is).
   */
  verification?: true;
}

/** One resource and what came with it (`quarantined` holds unreadable included resources). */
export interface Single<R> extends ReadReport {
  data: R;
  included: Resource[];
  meta?: Record<string, unknown>;
  serverDate: Date | null;
  url: string;
}

export interface Collected<R> extends ReadReport {
  data: R[];
  /** Included resources of all pages, each `type:id` once (the last copy wins). */
  included: Resource[];
  /** The clock of the FIRST page: a watermark must not skip changes made while later pages loaded (rule 8). */
  serverDate: Date | null;
  /** The digest of a one-page answer (undefined when paged, verified or not: no digest stands for the whole). */
  digest?: string;
  /** See Page.unchanged. */
  unchanged: boolean;
  /** The first page's `meta` (the notifications list counts itself there: `size`). */
  meta?: Record<string, unknown>;
}

/**
 * Reads every page of a list into memory (for the small collections): both passes of a paged
 * answer, whose pages name each record once, so the data is the union of what both listed.
 */
export async function collectPages<R>(pages: AsyncIterable<Page<R>>): Promise<Collected<R>> {
  const data: R[] = [];
  const included = new Map<string, Resource>();
  let serverDate: Date | null | undefined;
  let meta: Record<string, unknown> | undefined;
  let digest: string | undefined;
  let unchanged = false;
  let count = 0;
  const quarantined: QuarantinedRecord[] = [];
  let conversions = 0;
  for await (const page of pages) {
    count += 1;
    quarantined.push(...page.quarantined);
    conversions += page.conversions;
    if (serverDate === undefined) {
      serverDate = page.serverDate;
      meta = page.meta;
    }
    digest = page.digest;
    unchanged = page.unchanged === true;
    for (const item of page.data) data.push(item);
    for (const resource of page.included) included.set(`${resource.type}:${resource.id}`, resource);
  }
  return {
    data,
    included: [...included.values()],
    serverDate: serverDate ?? null,
    ...(count === 1 && digest ? { digest } : {}),
    unchanged,
    quarantined,
    conversions,
    ...(meta ? { meta } : {}),
  };
}
