// `npm run bench -- personnel`: the personnel workspace's queries on an office replica of the
// `large` demo (10,000 people; BENCH_SCALE=medium for a quick look), each as p95 of its own
// contract call and as a ratio to the bare SQL of the same answer in the same run: the search
// (trigrams, words of 1 to 8 characters, with and without umlauts, digits), the list's first page
// and a page deep in it, the status counts, the facets. And what the search index costs a write:
// every person rewritten with the index's triggers against the same without them. And what falls
// due (personnel.due), its first 200 people of a period of 0 to 12 months.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica } from '../../sync/db/open';
import { foldForSearch } from '../../sync/db/search-fold';
import { createDispatcher, typedCaller } from '../../sync/dispatch';
import { runSync } from '../../sync/pull/engine';

const RUNS = 200;

async function p95(runs: number, run: (i: number) => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs * 0.95)] ?? 0;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export async function personnelBench(): Promise<Record<string, unknown>> {
  const scale = (process.env.BENCH_SCALE ?? 'large') as 'large' | 'medium' | 'small';
  const sandbox = await startSandbox({ port: 0, scale, seed: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'vorort-bench-personnel-'));
  try {
    const office = sandbox.users.find((user) => user.role === 'office')!;
    const replica = openReplica(join(dir, 'replica.sqlite'));
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    const summary = await runSync({ api, replica, options: { profile: 'office' } });
    if (!summary.ok)
      throw new Error(`the office sync failed: ${JSON.stringify(summary.collections)}`);
    const { sqlite } = replica;
    const people = sqlite.prepare('SELECT count(*) FROM users').pluck().get() as number;
    const queries = typedCaller(createDispatcher(replica));

    // Words as an office types them: parts of names with and without umlauts, a member number's
    // digits, a phone's, and the first one or two letters (below the trigrams' three).
    const sample = sqlite
      .prepare('SELECT nachname, mitgliednr FROM users ORDER BY rowid LIMIT 40')
      .all() as { nachname: string; mitgliednr: string | null }[];
    const words = [
      ...sample.map((p) => foldForSearch(p.nachname).slice(1, 5)),
      ...sample.map((p) => (p.mitgliednr ?? '').slice(-3)).filter((n) => n.length === 3),
      'muller',
      'mül',
      'schm',
      'M',
      'an',
      '0171',
    ];
    const search = await p95(RUNS, (i) =>
      queries.query('personnel.list', { search: words[i % words.length], limit: 50 }),
    );
    // The bare SQL of the same answer: the trigram match alone, its first 50 by name.
    const bareMatch = sqlite.prepare(
      `SELECT users.id FROM users WHERE users.rowid IN
         (SELECT rowid FROM users_search WHERE users_search MATCH ?) ORDER BY sort_name LIMIT 50`,
    );
    const longWords = words.filter((word) => [...word].length >= 3);
    const searchBare = await p95(RUNS, (i) =>
      bareMatch.all(`"${foldForSearch(longWords[i % longWords.length]!)}"`),
    );
    const firstPage = await p95(RUNS, () => queries.query('personnel.list', { limit: 50 }));
    const deepPage = await p95(RUNS, (i) =>
      queries.query('personnel.list', {
        limit: 200,
        offset: Math.max(0, people - 200 - (i % 5) * 1000),
        sort: 'mitgliednr',
      }),
    );
    const bareFirstPage = sqlite.prepare(
      'SELECT id, vorname, nachname, status FROM users ORDER BY sort_name LIMIT 50',
    );
    const firstPageBare = await p95(RUNS, () => bareFirstPage.all());
    const filtered = await p95(RUNS, (i) =>
      queries.query('personnel.list', {
        status: i % 2 ? ['gesperrt', 'extern'] : ['aktiv'],
        search: i % 3 ? undefined : 'an',
        limit: 50,
      }),
    );
    const facets = await p95(50, () => queries.query('personnel.facets', {}));
    // What falls due (Fällig): the first 200 people of a period, the never read after them.
    const today = new Date().toISOString().slice(0, 10);
    const months = [0, 1, 3, 6, 12];
    const until = (i: number) => {
      const day = new Date(`${today}T12:00:00Z`);
      day.setUTCMonth(day.getUTCMonth() + months[i % months.length]!);
      return day.toISOString().slice(0, 10);
    };
    const due = await p95(50, (i) =>
      queries.query('personnel.due', { until: until(i), today, unread: true, limit: 200 }),
    );
    const dueOf = await queries.query('personnel.due', { until: until(2), today, limit: 1 });

    // The index's cost on writes: every person's search text rewritten, with the triggers and
    // (the baseline) with the index's triggers dropped, in one transaction each.
    const rewrite = sqlite.prepare("UPDATE users SET search_text = search_text || ' '");
    const restore = sqlite.prepare('UPDATE users SET search_text = rtrim(search_text)');
    const timed = (work: () => void) => {
      const started = performance.now();
      sqlite.transaction(work)();
      return performance.now() - started;
    };
    const withIndexMs = timed(() => rewrite.run());
    timed(() => restore.run());
    const triggers = sqlite
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'users'")
      .all() as { name: string; sql: string }[];
    for (const trigger of triggers) sqlite.exec(`DROP TRIGGER ${trigger.name}`);
    const withoutIndexMs = timed(() => rewrite.run());
    await replica.close();

    return {
      scale,
      people,
      runs: RUNS,
      searchP95Ms: round(search),
      searchBareMatchP95Ms: round(searchBare),
      searchRatio: round(search / searchBare),
      firstPageP95Ms: round(firstPage),
      firstPageBareP95Ms: round(firstPageBare),
      firstPageRatio: round(firstPage / firstPageBare),
      deepPageP95Ms: round(deepPage),
      filteredP95Ms: round(filtered),
      facetsP95Ms: round(facets),
      dueFirst200P95Ms: round(due),
      dueWithin3Months: { people: dueOf.withDue, neverRead: dueOf.total - dueOf.withDue },
      rewriteAllWithIndexMs: round(withIndexMs),
      rewriteAllWithoutIndexMs: round(withoutIndexMs),
      indexWriteRatio: round(withIndexMs / withoutIndexMs),
    };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
