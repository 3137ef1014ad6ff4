// The `ui` bench's office hours case (issue 23): the office's view of everyone's hours in browser
// mode, in Debian's Chromium, on a `large` replica (all 100,000 hour entries: a full sync after
// the first) against the same view on an empty one (target: each ratio at most 1.5):
// - open: from the click on the "Alle" tab to the view painted with this year's entries and their
//   totals per type and person (the frame after `data-painted` on office-hours names the filter);
// - filter: from "Freigegeben" chosen in the state filter to the view painted with that filter's
//   list and totals.
// Runs alternate between the two replicas; medians of `runs` runs each.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openReplica } from '../../sync/db/open';
import { spawnSandbox } from '../support/sandbox-process';
import { BenchApps, deadBaseUrl, fullOfficeSync, median, round, serviceAt } from './ui-bench';

interface Figures {
  openMs: number;
  filterMs: number;
  /** Entries of the year, and approved ones of it. */
  entries: number;
  entriesAfterFilter: number;
}

export async function officeHoursUiCase(
  browser: Browser,
  rendererDir: string,
  runs: number,
): Promise<Record<string, unknown>> {
  const service = await spawnSandbox(['--scale', 'large', '--seed', '1', '--auto-approve']);
  const apps = new BenchApps(rendererDir);
  try {
    const large = await apps.open(serviceAt(service, service.baseUrl), true);
    // The first sync reads the recent months; a full one reads every year's hours.
    const replica = openReplica(join(apps.userDataOf(large), 'replica.sqlite'));
    let replicaEntries = 0;
    try {
      await fullOfficeSync(service, replica);
      replicaEntries = replica.sqlite
        .prepare('SELECT count(*) FROM helferstunden')
        .pluck()
        .get() as number;
    } finally {
      await replica.close();
    }
    const empty = await apps.open(serviceAt(service, await deadBaseUrl()), false);
    const samples = { large: [] as Figures[], empty: [] as Figures[] };
    await measure(browser, large.url);
    await measure(browser, empty.url);
    for (let run = 0; run < runs; run++) {
      samples.large.push(await measure(browser, large.url));
      samples.empty.push(await measure(browser, empty.url));
    }
    const summary = (list: Figures[]) => ({
      openMs: median(list.map((f) => f.openMs)),
      filterMs: median(list.map((f) => f.filterMs)),
      entries: list[0]!.entries,
      entriesAfterFilter: list[0]!.entriesAfterFilter,
    });
    const l = summary(samples.large);
    const e = summary(samples.empty);
    const openRatio = round(l.openMs / e.openMs, 2);
    const filterRatio = round(l.filterMs / e.filterMs, 2);
    return {
      scale: 'large',
      replicaEntries,
      target: 'open and filter each at most 1.5 × the empty replica',
      large: l,
      empty: e,
      openRatio,
      filterRatio,
      withinTarget: openRatio <= 1.5 && filterRatio <= 1.5,
    };
  } finally {
    await apps.close();
    await service.stop();
  }
}

/** A fresh page: the hours workspace, the "Alle" tab to the view painted, then a filter. */
async function measure(browser: Browser, url: string): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  try {
    await page.addInitScript(WATCH_VIEW);
    await page.goto(url);
    await page.getByTestId('user-name').waitFor({ timeout: 60_000 });
    await page.locator('[data-workspace="hours"]').click();
    // The office's tab shows once the core's status names the office's profile.
    const tab = page.getByTestId('hours-tab-all');
    await tab.waitFor({ timeout: 60_000 });
    await noteNext(page, 'click');
    await tab.click();
    const opened = await paintedKey(page, null);
    const entries = await total(page);
    await noteNext(page, 'change');
    await page.getByTestId('office-filter-state').selectOption('approved');
    const filtered = await paintedKey(page, opened);
    const figures = await page.evaluate(
      ([first, second]) => {
        const bench = window.vorortHoursBench!;
        return {
          openMs: bench.painted.get(first!)! - bench.eventsAt[0]!,
          filterMs: bench.painted.get(second!)! - bench.eventsAt[1]!,
        };
      },
      [opened, filtered],
    );
    return { ...figures, entries, entriesAfterFilter: await total(page) };
  } finally {
    await context.close();
  }
}

/** The filter the view painted next (other than `after`), once its frame is noted. */
async function paintedKey(page: Page, after: string | null): Promise<string> {
  const handle = await page.waitForFunction(
    (previous) => {
      const bench = window.vorortHoursBench;
      if (!bench) return null;
      const keys = [...bench.painted.keys()].filter(
        (key) => key !== previous && Number.isFinite(bench.painted.get(key)),
      );
      return keys[0] ?? null;
    },
    after,
    { timeout: 60_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** Notes the time of the next event of this kind (the event's own time stamp). */
async function noteNext(page: Page, kind: 'click' | 'change'): Promise<void> {
  await page.evaluate((type) => {
    document.addEventListener(
      type,
      (event) => window.vorortHoursBench!.eventsAt.push(event.timeStamp),
      { once: true, capture: true },
    );
  }, kind);
}

async function total(page: Page): Promise<number> {
  const list = page.locator(
    '[data-testid="office-hours-list"], [data-testid="office-hours-empty"]',
  );
  return Number(await list.first().getAttribute('data-total'));
}

declare global {
  interface Window {
    vorortHoursBench?: { painted: Map<string, number>; eventsAt: number[] };
  }
}

/** Runs in the page before its scripts: notes when the view first shows each filter painted. */
const WATCH_VIEW = `(() => {
  const bench = { painted: new Map(), eventsAt: [] };
  window.vorortHoursBench = bench;
  const check = () => {
    const view = document.querySelector('[data-testid="office-hours"][data-painted]');
    const key = view ? view.getAttribute('data-painted') : null;
    if (key === null || bench.painted.has(key)) return;
    bench.painted.set(key, Number.NaN);
    requestAnimationFrame(() => bench.painted.set(key, performance.now()));
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-painted'],
  });
})();`;
