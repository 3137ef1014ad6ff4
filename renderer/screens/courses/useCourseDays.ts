// The course list's data: courses.days read page by page (200 rows) as the list scrolls, with
// the row where today begins (anchorIndex). A new filter keeps the old rows on screen until the
// new first page is there, so typing never flashes an empty list; a change of the replica reads
// the loaded pages again, together, and swaps them in at once.
import { useCallback, useEffect, useRef, useState } from 'react';
import { CALL_READS, type CoreError, type CourseDayItem, type QueryArgs } from '../../contract';
import { asCoreError, useApp, useTablesVersion } from '../../stores';

export const PAGE_SIZE = 200;

/** The filter part of courses.days (everything but anchor and paging). */
export type DaysFilter = Omit<QueryArgs<'courses.days'>, 'limit' | 'offset' | 'anchor'>;

interface Page {
  items: CourseDayItem[];
  /** The row before the page's first (null on the first page): its day decides a heading. */
  before: CourseDayItem | null;
}

export interface CourseDays {
  /** Rows of the filter now shown; null until the first answer. */
  total: number | null;
  anchorIndex: number;
  /** Bumped when a new filter's rows replace the old ones (the list scrolls to the anchor then). */
  generation: number;
  /** The row at index, or undefined while its page loads. */
  item(index: number): CourseDayItem | undefined;
  /** The row before index (for the day heading): undefined when not known yet, null at the start. */
  previous(index: number): CourseDayItem | null | undefined;
  /** Asks for the pages of the rows start..end (the list's visible range). */
  want(start: number, end: number): void;
  /** The search text the rows shown answer (a test or bench sees when a keystroke is on screen). */
  shownSearch: string | null;
  /** A new filter's rows are on the way. */
  loading: boolean;
  error: CoreError | null;
}

interface Loaded {
  key: string;
  total: number;
  anchorIndex: number;
  pages: Map<number, Page>;
}

function pageArgs(filter: DaysFilter, anchor: string, page: number): QueryArgs<'courses.days'> {
  // One row more in front (not on the first page): the previous row's day, for the heading.
  const offset = page === 0 ? 0 : page * PAGE_SIZE - 1;
  return { ...filter, anchor, offset, limit: page === 0 ? PAGE_SIZE : PAGE_SIZE + 1 };
}

function toPage(page: number, items: CourseDayItem[]): Page {
  return page === 0 ? { items, before: null } : { items: items.slice(1), before: items[0] ?? null };
}

export function useCourseDays(filter: DaysFilter | null, anchor: string): CourseDays {
  const bridge = useApp((store) => store.bridge);
  const dataVersion = useTablesVersion(CALL_READS['courses.days']);
  const key = filter ? JSON.stringify({ ...filter, anchor }) : null;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [generation, setGeneration] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<CoreError | null>(null);
  const current = useRef<Loaded | null>(null);
  current.current = loaded;
  /** Pages being read for the current key (not asked twice). */
  const inFlight = useRef(new Set<string>());
  const latestKey = useRef<string | null>(null);

  const fetchPage = useCallback(
    async (args: DaysFilter, page: number) => {
      if (!bridge) throw new Error('no bridge');
      const answer = await bridge.call('courses.days', pageArgs(args, anchor, page));
      return { answer, page: toPage(page, answer.items) };
    },
    [bridge, anchor],
  );

  // A new filter: its first page, and the page where today begins.
  useEffect(() => {
    if (!bridge || !filter || key === null) return;
    latestKey.current = key;
    inFlight.current.clear();
    setLoading(true);
    let alive = true;
    (async () => {
      try {
        const first = await fetchPage(filter, 0);
        const pages = new Map<number, Page>([[0, first.page]]);
        const anchorPage = Math.floor(first.answer.anchorIndex / PAGE_SIZE);
        if (anchorPage > 0 && first.answer.anchorIndex < first.answer.total) {
          const around = await fetchPage(filter, anchorPage);
          pages.set(anchorPage, around.page);
        }
        if (!alive || latestKey.current !== key) return;
        setLoaded({
          key,
          total: first.answer.total,
          anchorIndex: first.answer.anchorIndex,
          pages,
        });
        setGeneration((n) => n + 1);
        setError(null);
      } catch (failure) {
        if (alive && latestKey.current === key) setError(asCoreError(failure));
      } finally {
        if (alive && latestKey.current === key) setLoading(false);
      }
    })();
    return () => {
      alive = false;
    };
  }, [bridge, key, fetchPage]);

  // The replica changed: the loaded pages again, swapped in together.
  const seenVersion = useRef(dataVersion);
  useEffect(() => {
    if (seenVersion.current === dataVersion) return;
    seenVersion.current = dataVersion;
    const shown = current.current;
    if (!bridge || !filter || !shown || shown.key !== key) return;
    let alive = true;
    (async () => {
      try {
        const numbers = [...shown.pages.keys()];
        const answers = await Promise.all(numbers.map((n) => fetchPage(filter, n)));
        if (!alive || latestKey.current !== key) return;
        const pages = new Map<number, Page>();
        numbers.forEach((n, i) => pages.set(n, answers[i]!.page));
        const last = answers[answers.length - 1]?.answer;
        setLoaded({
          key: shown.key,
          total: last ? last.total : shown.total,
          anchorIndex: last ? last.anchorIndex : shown.anchorIndex,
          pages,
        });
        setError(null);
      } catch (failure) {
        if (alive) setError(asCoreError(failure));
      }
    })();
    return () => {
      alive = false;
    };
  }, [dataVersion, bridge, key, fetchPage]);

  const want = useCallback(
    (start: number, end: number) => {
      const shown = current.current;
      if (!shown || !filter || shown.key !== key) return;
      const firstPage = Math.floor(Math.max(0, start) / PAGE_SIZE);
      const lastPage = Math.floor(Math.max(0, Math.min(end, shown.total - 1)) / PAGE_SIZE);
      for (let page = firstPage; page <= lastPage; page++) {
        const flight = `${shown.key}#${page}`;
        if (shown.pages.has(page) || inFlight.current.has(flight)) continue;
        inFlight.current.add(flight);
        fetchPage(filter, page).then(
          ({ page: data, answer }) => {
            inFlight.current.delete(flight);
            setLoaded((before) => {
              if (!before || before.key !== shown.key) return before;
              const pages = new Map(before.pages);
              pages.set(page, data);
              return { ...before, pages, total: answer.total, anchorIndex: answer.anchorIndex };
            });
          },
          (failure: unknown) => {
            inFlight.current.delete(flight);
            setError(asCoreError(failure));
          },
        );
      }
    },
    // With the rows shown (loaded): a new filter's rows ask again for what is in view.
    [key, fetchPage, loaded],
  );

  const item = useCallback(
    (index: number) => loaded?.pages.get(Math.floor(index / PAGE_SIZE))?.items[index % PAGE_SIZE],
    [loaded],
  );
  const previous = useCallback(
    (index: number): CourseDayItem | null | undefined => {
      if (index <= 0) return null;
      const page = loaded?.pages.get(Math.floor(index / PAGE_SIZE));
      if (!page) return undefined;
      const within = index % PAGE_SIZE;
      return within === 0 ? (page.before ?? undefined) : page.items[within - 1];
    },
    [loaded],
  );

  return {
    total: loaded ? loaded.total : null,
    anchorIndex: loaded ? loaded.anchorIndex : 0,
    shownSearch: loaded ? ((JSON.parse(loaded.key) as DaysFilter).search ?? '') : null,
    generation,
    item,
    previous,
    want,
    loading,
    error,
  };
}
