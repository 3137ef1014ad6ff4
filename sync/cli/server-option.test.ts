// The address a token is sent to: https, or plain http on this computer only (the app's account
// form's rule, serviceAddressProblem), plain http elsewhere only with --allow-insecure-http, whose
// help says what it gives up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { CliInputError } from './exit-codes';
import { parseServiceUrl } from './parse';
import { registerSyncCommand } from './sync-command';
import { checkedSetup, type SyncCommandOptions } from './sync-setup';

const dir = mkdtempSync(join(tmpdir(), 'vorort-server-option-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (more: Partial<SyncCommandOptions>): SyncCommandOptions => ({
  server: 'https://api.example.org/core/v1',
  versionedPaths: 'base',
  token: 'secret',
  db: join(dir, 'replica.sqlite'),
  profile: 'office',
  maxInFlight: '4',
  interval: '5',
  ...more,
});

describe('--server and --oauth-url', () => {
  it('take https anywhere and plain http on this computer', () => {
    expect(parseServiceUrl('https://api.example.org/core/v1', '--server')).toBe(
      'https://api.example.org/core/v1',
    );
    for (const local of ['http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:2'])
      expect(parseServiceUrl(local, '--server'), local).toBe(local);
    expect(checkedSetup(options({ server: 'http://127.0.0.1:9/core/v1' })).baseUrl).toBe(
      'http://127.0.0.1:9/core/v1',
    );
  });

  it('refuse plain http to another computer before the token is sent', () => {
    expect(() => checkedSetup(options({ server: 'http://api.example.org/core/v1' }))).toThrow(
      /^--server: plain http is allowed only on this computer .*--allow-insecure-http/,
    );
    expect(() => checkedSetup(options({ oauthUrl: 'http://10.0.0.5/oauth/v1' }))).toThrow(
      CliInputError,
    );
    expect(() => parseServiceUrl('http://127.0.0.1.example.org', '--server')).toThrow(
      CliInputError,
    );
  });

  it('take it with --allow-insecure-http, which says what it gives up', () => {
    const setup = checkedSetup(
      options({
        server: 'http://api.example.org/core/v1',
        oauthUrl: 'http://api.example.org/oauth/v1',
        allowInsecureHttp: true,
      }),
    );
    expect(setup).toMatchObject({
      baseUrl: 'http://api.example.org/core/v1',
      oauthUrl: 'http://api.example.org/oauth/v1',
    });
    const program = new Command('vorort');
    registerSyncCommand(program);
    const help = program.commands[0]!.helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(/--allow-insecure-http .*token and all data then travel unencrypted/);
  });
});
