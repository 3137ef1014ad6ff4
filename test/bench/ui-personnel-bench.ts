// The `ui` bench's personnel case (issue 22): the office's personnel workspace in browser mode, in
// Debian's Chromium, on a `large` replica (10,000 people) against the same on an empty one
// (target: each ratio at most 1.5):
// - open: from Alt+5 pressed (the workspace chosen) to the list of everyone painted (the frame
//   after the list shows the rows of its query: `data-search=""` on people-list);
// - keystroke: with "mü" in the search, from the "l" pressed to the list painted with the rows of
//   "mül" (trigrams over every person; each key queries at once);
// - staticKeystroke: the same key on a static copy of the page, whose input handler puts in the
//   list's markup of "mül" as the app painted it (ui-bench.ts's staticKeystroke): what the browser
//   needs to paint those rows without the app; keystroke − staticKeystroke at most one frame (20 ms).
// Runs alternate between the two replicas; medians of `runs` runs each.
import type { Browser, Page } from 'playwright-core';
import { spawnSandbox } from '../support/sandbox-process';
import {
  BenchApps,
  deadBaseUrl,
  FRAME_MS,
  listMarkup,
  median,
  round,
  serviceAt,
  STATIC_COPY,
  staticKeystroke,
} from './ui-bench';

interface Figures {
  openMs: number;
  keystrokeMs: number;
  staticKeystrokeMs: number;
  people: number;
  peopleAfterKey: number;
}

export async function personnelUiCase(
  browser: Browser,
  rendererDir: string,
  runs: number,
): Promise<Record<string, unknown>> {
  const service = await spawnSandbox(['--scale', 'large', '--seed', '1', '--auto-approve']);
  const apps = new BenchApps(rendererDir);
  try {
    const large = await apps.open(serviceAt(service, service.baseUrl), true);
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
      keystrokeMs: median(list.map((f) => f.keystrokeMs)),
      staticKeystrokeMs: median(list.map((f) => f.staticKeystrokeMs)),
      /** Median of each run's keystroke − its static page's. */
      keystrokeOverStaticMs: median(list.map((f) => f.keystrokeMs - f.staticKeystrokeMs)),
      people: list[0]!.people,
      peopleAfterKey: list[0]!.peopleAfterKey,
    });
    const l = summary(samples.large);
    const e = summary(samples.empty);
    const openRatio = round(l.openMs / e.openMs, 2);
    const keystrokeRatio = round(l.keystrokeMs / e.keystrokeMs, 2);
    return {
      scale: 'large',
      target:
        'open and keystroke each at most 1.5 × the empty replica; keystroke at most 20 ms over the static page',
      large: l,
      empty: e,
      openRatio,
      keystrokeRatio,
      withinTarget:
        openRatio <= 1.5 &&
        keystrokeRatio <= 1.5 &&
        l.keystrokeOverStaticMs <= FRAME_MS &&
        e.keystrokeOverStaticMs <= FRAME_MS,
    };
  } finally {
    await apps.close();
    await service.stop();
  }
}

/** A fresh page: Alt+5 to the list painted, then "l" after "mü" to its rows painted. */
async function measure(browser: Browser, url: string): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  try {
    await page.addInitScript(WATCH_PEOPLE);
    await page.goto(url);
    await page.getByTestId('user-name').waitFor({ timeout: 60_000 });
    const painted = (search: string) =>
      page.waitForFunction(
        (wanted) => Number.isFinite(window.vorortPeopleBench?.painted.get(wanted)),
        search,
        { timeout: 30_000 },
      );
    await noteNextKey(page);
    await page.keyboard.press('Alt+5');
    await painted('');
    const people = await total(page);
    await page.locator('#people-search').fill('mü');
    await painted('mü');
    const before = await page.evaluate(STATIC_COPY);
    await noteNextKey(page);
    await page.keyboard.press('l');
    await painted('mül');
    const figures = await page.evaluate(() => {
      const bench = window.vorortPeopleBench!;
      return {
        openMs: bench.painted.get('')! - bench.keysAt[0]!,
        keystrokeMs: bench.painted.get('mül')! - bench.keysAt[1]!,
      };
    });
    const staticKeystrokeMs = await staticKeystroke(page, before, {
      input: '#people-search',
      list: LIST,
      listAfter: await page.evaluate(listMarkup, LIST),
      key: 'l',
    });
    return { ...figures, staticKeystrokeMs, people, peopleAfterKey: await total(page) };
  } finally {
    await context.close();
  }
}

/** Notes the time of the next key pressed (the event's own time stamp). */
async function noteNextKey(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.addEventListener(
      'keydown',
      (event) => window.vorortPeopleBench!.keysAt.push(event.timeStamp),
      { once: true, capture: true },
    );
  });
}

const LIST = '[data-testid="people-list"], [data-testid="people-empty"]';

async function total(page: Page): Promise<number> {
  const list = page.locator(LIST);
  return Number(await list.first().getAttribute('data-total'));
}

declare global {
  interface Window {
    vorortPeopleBench?: { painted: Map<string, number>; keysAt: number[] };
  }
}

/** Runs in the page before its scripts: notes when the list first shows each search's rows. */
const WATCH_PEOPLE = `(() => {
  const bench = { painted: new Map(), keysAt: [] };
  window.vorortPeopleBench = bench;
  const check = () => {
    const list = document.querySelector(
      '[data-testid="people-list"][data-search], [data-testid="people-empty"][data-search]',
    );
    const search = list ? list.getAttribute('data-search') : null;
    if (search === null || bench.painted.has(search)) return;
    bench.painted.set(search, Number.NaN);
    requestAnimationFrame(() => bench.painted.set(search, performance.now()));
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-search'],
  });
})();`;
