// The demo's provider: the sandbox on a free loopback port in a worker thread, its data in the
// given folder (kept across restarts), its login page approving by itself (a GET following
// redirects gets a code); close() stops it, the host ending never waits for it, and a thread that
// fails is said in words.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDemoWorkerUrl, sandboxDemo } from './demo';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'vorort-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in worker entry (the host's side of the protocol under test). */
function fakeWorker(name: string, code: string): URL {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${code}\n`);
  return pathToFileURL(file);
}

const READY = `parentPort.postMessage({ type: 'ready', baseUrl: 'http://127.0.0.1:9/core/v1', authUrl: 'a', tokenUrl: 't', clientId: 'c' });`;

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

describe('sandboxDemo', () => {
  it('starts the sandbox on loopback with its data in the folder and approves the login itself', async () => {
    const running = await sandboxDemo().start(dir);
    try {
      expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/core\/v1$/);
      expect(existsSync(join(dir, 'sandbox.sqlite'))).toBe(true);
      // The demo's data is the user's alone, like the replica (SQLite's -wal takes its mode).
      for (const file of ['sandbox.sqlite', 'sandbox.sqlite-wal'].filter((f) =>
        existsSync(join(dir, f)),
      ))
        expect(statSync(join(dir, file)).mode & 0o777, file).toBe(0o600);
      const url = new URL(running.authUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: running.clientId,
        redirect_uri: 'http://127.0.0.1:9/callback',
        state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
    } finally {
      await running.close();
    }
    // Stopped: its port answers no more; closing again is harmless.
    expect(await refused(running.authUrl)).toBe(true);
    await running.close();
  });

  it('finds its worker beside the code: the sources’ loader entry, or the bundle’s built file', () => {
    expect(defaultDemoWorkerUrl().href).toBe(
      pathToFileURL(join(ROOT, 'electron', 'demo-worker-source.mjs')).href,
    );
    expect(defaultDemoWorkerUrl('file:///app/dist/electron/main.mjs').href).toBe(
      'file:///app/dist/electron/demo-worker.mjs',
    );
  });

  it('says in words why the sandbox could not start', async () => {
    // The data file's place is a folder: the store cannot open it.
    const blocked = join(dir, 'blocked');
    mkdirSync(join(blocked, 'sandbox.sqlite'), { recursive: true });
    await expect(sandboxDemo().start(blocked)).rejects.toThrow(
      /^The demo's sandbox could not start: /,
    );
    const thrown = fakeWorker('throws', `throw new Error('kaputt');`);
    await expect(sandboxDemo({ workerUrl: thrown }).start(dir)).rejects.toThrow(
      "The demo's sandbox could not start: kaputt",
    );
    const silent = fakeWorker('silent', `process.exit(3);`);
    await expect(sandboxDemo({ workerUrl: silent }).start(dir)).rejects.toThrow(
      /could not start: its thread ended \(exit code 3\)/,
    );
  });

  it('reports a crash of the running sandbox’s thread in words; close() then returns at once', async () => {
    const crashing = fakeWorker(
      'crashes',
      `${READY}\nsetTimeout(() => { throw new Error('out of memory, say'); }, 20);`,
    );
    let reported: (error: Error) => void = () => {};
    const stopped = new Promise<Error>((resolve) => {
      reported = resolve;
    });
    const running = await sandboxDemo({ workerUrl: crashing, onStopped: reported }).start(dir);
    const error = await stopped;
    expect(error.message).toContain("The demo's sandbox stopped by itself: out of memory, say");
    await running.close();
  });

  it('ends a thread that does not stop when asked', async () => {
    const stubborn = fakeWorker('stubborn', `${READY}\nparentPort.on('message', () => {});`);
    const stopped: Error[] = [];
    const running = await sandboxDemo({
      workerUrl: stubborn,
      closeTimeoutMs: 100,
      onStopped: (error) => stopped.push(error),
    }).start(dir);
    const began = Date.now();
    await running.close();
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(stopped).toEqual([]);
  });

  it('never keeps the host running: a host that ends without close() ends, and the sandbox with it', async () => {
    const script = join(dir, 'host.mts');
    writeFileSync(
      script,
      `import { sandboxDemo } from ${JSON.stringify(pathToFileURL(join(ROOT, 'electron', 'demo.ts')).href)};\n` +
        `const running = await sandboxDemo().start(${JSON.stringify(join(dir, 'host'))});\n` +
        `console.log(running.authUrl);\n`,
    );
    mkdirSync(join(dir, 'host'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bin', 'run-ts.mjs'), script],
      { cwd: ROOT, timeout: 60_000 },
    );
    const authUrl = stdout.trim();
    expect(authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(await refused(authUrl)).toBe(true);
  }, 90_000);
});
