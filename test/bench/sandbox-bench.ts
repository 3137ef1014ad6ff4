// The `sandbox` case: the sandbox must never be a client benchmark's bottleneck. At scale
// `large` it times the two largest answers (all personnel; all 100,000 hour entries), best and
// median of five, against serving the very same bytes from a bare node:http server measured in
// the same run (the transport's limit): ratio = sandbox time ÷ static time.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { spawnSandbox } from '../support/sandbox-process';

const RUNS = 5;

export async function sandboxBench(): Promise<Record<string, unknown>> {
  const scale = process.env.BENCH_SCALE ?? 'large';
  const startedAt = performance.now();
  const sandbox = await spawnSandbox(['--scale', scale, '--seed', '1']);
  const startSeconds = (performance.now() - startedAt) / 1000;
  try {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const headers = { authorization: `Bearer ${office.accessToken}` };
    const figures: Record<string, unknown> = {
      scale,
      startSeconds: Number(startSeconds.toFixed(2)),
    };
    for (const [name, path] of [
      ['personal', '/personal'],
      ['helferstunden', '/helferstunden?filter[eigene]=false&filter[von]=2000-01-01'],
    ] as const) {
      const body = Buffer.from(
        await (await fetch(`${sandbox.baseUrl}${path}`, { headers })).arrayBuffer(),
      );
      const records = (JSON.parse(body.toString()) as { data: unknown[] }).data.length;
      const served = await timed(`${sandbox.baseUrl}${path}`, headers);
      const staticServed = await withStaticServer(body, (url) => timed(url, {}));
      figures[name] = {
        records,
        megabytes: Number((body.byteLength / 1e6).toFixed(1)),
        bestSeconds: served.best,
        medianSeconds: served.median,
        staticBestSeconds: staticServed.best,
        ratio: Number((served.best / staticServed.best).toFixed(2)),
      };
    }
    return figures;
  } finally {
    await sandbox.stop();
  }
}

async function timed(
  url: string,
  headers: Record<string, string>,
): Promise<{ best: number; median: number }> {
  const seconds: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    seconds.push((performance.now() - started) / 1000);
  }
  seconds.sort((a, b) => a - b);
  const round = (value: number) => Number(value.toFixed(3));
  return { best: round(seconds[0]!), median: round(seconds[Math.floor(RUNS / 2)]!) };
}

async function withStaticServer<T>(body: Buffer, use: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/vnd.api+json',
      'content-length': body.byteLength,
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
