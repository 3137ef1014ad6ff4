// The demo's provider: the sandbox on a free loopback port, its data in the given folder (kept
// across restarts), its login page approving by itself (a GET following redirects gets a code).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxDemo } from './demo';

const dir = mkdtempSync(join(tmpdir(), 'vorort-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sandboxDemo', () => {
  it('starts the sandbox on loopback with its data in the folder and approves the login itself', async () => {
    const running = await sandboxDemo().start(dir);
    try {
      expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/core\/v1$/);
      expect(existsSync(join(dir, 'sandbox.sqlite'))).toBe(true);
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
  });
});
