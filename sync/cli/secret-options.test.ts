// The token and the feed's address off the command line (where `ps` shows them to every user):
// from the environment, a file or standard input; --help shows those ways and says what --token
// and --feed-url give away.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { CliInputError } from './exit-codes';
import { registerSyncCommand } from './sync-command';
import {
  feedUrlOption,
  tokenSourceOf,
  type SecretInputs,
  type SyncCommandOptions,
} from './sync-setup';

const dir = mkdtempSync(join(tmpdir(), 'vorort-secret-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'http://127.0.0.1:9/core/v1';
const FEED = 'https://dienst.example/ical/v1/veranstaltungen/private-abc/feed.ics';
const options = (more: Partial<SyncCommandOptions>): SyncCommandOptions => ({
  server: BASE,
  versionedPaths: 'base',
  db: join(dir, 'replica.sqlite'),
  profile: 'office',
  maxInFlight: '4',
  interval: '5',
  ...more,
});
const inputs = (env: NodeJS.ProcessEnv, stdin = ''): SecretInputs => ({
  env,
  stdin: () => stdin,
});

describe('the token', () => {
  it('comes from VORORT_TOKEN, and from standard input with --token-file -', async () => {
    const fromEnv = tokenSourceOf(options({}), BASE, inputs({ VORORT_TOKEN: 'env-token' }));
    expect(await fromEnv.getAccessToken()).toBe('env-token');
    const bare = tokenSourceOf(options({ tokenFile: '-' }), BASE, inputs({}, 'piped-token\n'));
    expect(await bare.getAccessToken()).toBe('piped-token');
    const json = tokenSourceOf(
      options({ tokenFile: '-' }),
      BASE,
      inputs({}, JSON.stringify({ access_token: 'json-token', refresh_token: 'r' })),
    );
    expect(await json.getAccessToken()).toBe('json-token');
    // The options win over the environment.
    const flag = tokenSourceOf(options({ token: 'flag' }), BASE, inputs({ VORORT_TOKEN: 'env' }));
    expect(await flag.getAccessToken()).toBe('flag');
  });

  it('is asked for with the ways that keep it out of ps', () => {
    expect(() => tokenSourceOf(options({}), BASE, inputs({ VORORT_TOKEN: ' ' }))).toThrow(
      /--token-file FILE, --token-file - \(standard input\) or VORORT_TOKEN/,
    );
    expect(() => tokenSourceOf(options({ tokenFile: '-' }), BASE, inputs({}, 'two words'))).toThrow(
      /holds no token/,
    );
  });
});

describe("the feed's address", () => {
  it('comes from VORORT_FEED_URL, a file or standard input', () => {
    expect(feedUrlOption({}, inputs({ VORORT_FEED_URL: FEED }))).toBe(FEED);
    expect(feedUrlOption({}, inputs({}))).toBeUndefined();
    const file = join(dir, 'feed.txt');
    writeFileSync(file, `${FEED}\n`, { mode: 0o600 });
    expect(feedUrlOption({ feedUrlFile: file }, inputs({}))).toBe(FEED);
    expect(feedUrlOption({ feedUrlFile: '-' }, inputs({}, `${FEED}\n`))).toBe(FEED);
    expect(feedUrlOption({ feedUrlFile: '-' }, inputs({}, 'none\n'))).toBeNull();
    expect(() => feedUrlOption({ feedUrlFile: '-', tokenFile: '-' }, inputs({}))).toThrow(
      CliInputError,
    );
    expect(() => feedUrlOption({ feedUrlFile: join(dir, 'missing') }, inputs({}))).toThrow(
      /^--feed-url-file: cannot read/,
    );
  });
});

describe('vorort sync --help', () => {
  it('shows the environment, a file and standard input, and says what --token gives away', () => {
    const program = new Command('vorort');
    registerSyncCommand(program);
    let text = '';
    const command = program.commands[0]!.configureOutput({ writeOut: (part) => (text += part) });
    command.outputHelp();
    const help = text.replace(/\s+/g, ' ');
    expect(help).toMatch(/--token <token> .*visible to every user of this computer \(ps\)/);
    expect(help).toMatch(/--feed-url <url> .*visible to every user of this computer \(ps\)/);
    expect(help).toContain('VORORT_TOKEN=… vorort sync');
    expect(help).toContain('--token-file -');
    expect(help).toContain('VORORT_FEED_URL');
  });
});
