// Speed at scale large (10,000 people, 100,000 hour entries): the two biggest answers must
// come well under 2 s. The sandbox runs in its own process, as under a client benchmark, so
// that reading the answer here does not share its event loop; the time is to the last byte.
// The machines are shared and noisy, so the best of three runs is held to the limit and all
// three are printed.
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSandbox, type SandboxProcess } from '../../test/support/sandbox-process';

let sandbox: SandboxProcess;
let token: string;

beforeAll(async () => {
  sandbox = await spawnSandbox(['--scale', 'large', '--seed', '1']);
  token = sandbox.users.find((user) => user.role === 'office')!.accessToken;
}, 180_000);
afterAll(() => sandbox?.stop());

function timedGet(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({ ms: performance.now() - started, bytes, status: response.statusCode ?? 0 }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('speed at scale large', () => {
  for (const [name, path] of [
    ['GET /personal', '/personal'],
    [
      'GET /helferstunden, everyone since 2000',
      '/helferstunden?filter%5Beigene%5D=false&filter%5Bvon%5D=2000-01-01',
    ],
  ] as const) {
    it(`${name} answers in well under 2 s`, async () => {
      const runs = [];
      for (let i = 0; i < 3; i += 1) runs.push(await timedGet(sandbox.baseUrl + path));
      for (const run of runs) expect(run.status).toBe(200);
      const times = runs.map((run) => Math.round(run.ms));
      console.log(`${name}: ${(runs[0]!.bytes / 1e6).toFixed(1)} MB in ${times.join(' / ')} ms`);
      expect(Math.min(...times)).toBeLessThan(2000);
    }, 60_000);
  }
});
