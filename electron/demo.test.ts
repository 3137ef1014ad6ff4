// The demo's provider: the sandbox on a free loopback port in a worker thread, its data in the
// given folder (kept across restarts), its login page approving by itself (a GET following
// redirects gets a code) only for the host (its per-run secret), answering only at its own
// ports (Host; the session's switch told), with a feed secret of its own; close() stops it, the
// host ending never waits for it, and a thread that fails is said in words.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../sandbox/server';
import { startSwitchedDemo } from '../sync/host/demo-control';
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

/** A GET with the Host header given (fetch does not let it be set): the status. */
const statusWithHost = (url: string, host: string) =>
  new Promise<number>((done, fail) => {
    const call = request(url, { headers: { host } }, (answer) => {
      answer.resume();
      done(answer.statusCode ?? 0);
    });
    call.on('error', fail);
    call.end();
  });

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
      // Only the host, which holds the per-run secret, signs in by just asking.
      const answer = await fetch(url, { redirect: 'manual', headers: { ...running.loginHeaders } });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
      // Another program of this computer asking the same gets no code (nor a form to post).
      const other = await fetch(url, { redirect: 'manual' });
      expect(other.status).toBe(403);
      expect(other.headers.get('location')).toBeNull();
    } finally {
      await running.close();
    }
    // Stopped: its port answers no more; closing again is harmless.
    expect(await refused(running.authUrl)).toBe(true);
    await running.close();
  });

  it('answers no other Host than its own ports (the session’s switch one of them), and keeps a feed secret of its own', async () => {
    const data = join(dir, 'own');
    mkdirSync(data);
    const running = await sandboxDemo().start(data);
    try {
      const { host, origin } = new URL(running.authUrl);
      const jwks = `${origin}/oauth/v1/jwks`;
      expect(await statusWithHost(jwks, host)).toBe(200);
      // A web page under a name of its own that resolves to 127.0.0.1 (DNS rebinding).
      expect(await statusWithHost(jwks, `rebound.example:${new URL(origin).port}`)).toBe(421);
      expect(await statusWithHost(running.baseUrl, 'rebound.example')).toBe(421);
    } finally {
      await running.close();
    }
    // The session reaches the interface through its switch (the demo taken offline and back), on
    // a port of its own: answered (401 without a token), not 421, also once back online.
    const switched = await startSwitchedDemo(sandboxDemo(), data);
    try {
      const organisation = `${switched.baseUrl}/organisation/selbst/stammdaten`;
      expect(new URL(switched.baseUrl).port).not.toBe(new URL(switched.authUrl).port);
      expect((await fetch(organisation)).status).toBe(401);
      await switched.setOnline(false);
      await switched.setOnline(true);
      expect((await fetch(organisation)).status).toBe(401);
      expect(await statusWithHost(organisation, 'rebound.example')).toBe(421);
    } finally {
      await switched.close();
    }
    // The feed's secret, kept with the demo's data, is not the one the seed gives every install.
    const kept = await startSandbox({ data: join(data, 'sandbox.sqlite') });
    const seeded = await startSandbox({ scale: 'small', seed: 1 });
    try {
      expect(new URL(kept.feedUrl).pathname).not.toBe(new URL(seeded.feedUrl).pathname);
      expect(kept.users.map((user) => user.name)).toEqual(seeded.users.map((user) => user.name));
    } finally {
      await Promise.all([kept.close(), seeded.close()]);
    }
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
