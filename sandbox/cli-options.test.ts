// The option parsers of `vorort sandbox`: what they accept, and that every refusal is a
// commander InvalidArgumentError (which the command turns into exit status 2) with a reason.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  SCALE_NAMES,
  parseAnchorDate,
  parseClientRegistration,
  parseDataFile,
  parseFaults,
  parseHost,
  parsePageSize,
  parsePort,
  parsePrefix,
  parseRateLimitOption,
  parseSeed,
  parseShapesOption,
  parseTokenTtl,
} from './cli-options';
import { registerSandboxCommand } from './cli';

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('sandbox option parsers', () => {
  it('offers the scales of the generator, smallest first', () => {
    expect(SCALE_NAMES).toEqual(['small', 'medium', 'large']);
  });

  it('reads whole numbers within their range', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort('65535')).toBe(65_535);
    expect(parseSeed('42')).toBe(42);
    expect(parsePageSize('25')).toBe(25);
    expect(parseTokenTtl('1')).toBe(1);
    for (const [parse, text] of [
      [parsePort, 'abc'],
      [parsePort, '70000'],
      [parsePort, '80.5'],
      [parsePort, ''],
      [parseSeed, '-1'],
      [parsePageSize, '0'],
      [parsePageSize, 'many'],
      [parseTokenTtl, '0'],
      [parseTokenTtl, '1e3'],
    ] as const) {
      expect(refusal(() => parse(text))).toMatch(/must be a whole number from \d+ to \d+/);
    }
  });

  it('reads hosts, prefixes and anchor dates', () => {
    expect(parseHost('127.0.0.1')).toBe('127.0.0.1');
    expect(parseHost('localhost')).toBe('localhost');
    expect(parseHost('::1')).toBe('::1');
    expect(parseHost('[::1]')).toBe('::1');
    expect(refusal(() => parseHost('http://x'))).toMatch(/host name or an IP address/);
    expect(parsePrefix('/core/v1')).toBe('/core/v1');
    for (const prefix of ['core/v1', '/core/v1/', '/', '/a b']) {
      expect(refusal(() => parsePrefix(prefix))).toMatch(/path like \/core\/v1/);
    }
    expect(parseAnchorDate('2024-02-29')).toBe('2024-02-29');
    for (const date of ['2026-02-30', '2026-2-1', '01.03.2026', 'today']) {
      expect(refusal(() => parseAnchorDate(date))).toMatch(/YYYY-MM-DD/);
    }
  });

  it('reads fault specs and rate limits with the sandbox’s own parsers', () => {
    expect(parseFaults('error=0.1,lost=0.05')).toMatchObject({ error: 0.1, lost: 0.05 });
    expect(refusal(() => parseFaults('error=2'))).toMatch(/between 0 and 1/);
    expect(refusal(() => parseFaults('error=0.6,lost=0.6'))).toMatch(/add up to/);
    expect(refusal(() => parseFaults('error=0.1,error=0.2'))).toMatch(/twice/);
    expect(refusal(() => parseFaults('error'))).toMatch(/kind=rate/);
    expect(parseFaults('unreadable=0.01')).toMatchObject({ unreadable: 0.01, error: 0 });
    expect(parseRateLimitOption('30/min')).toEqual({ limit: 30, windowMs: 60_000 });
    expect(refusal(() => parseRateLimitOption('30/fortnight'))).toMatch(/N\/unit/);
    expect(refusal(() => parseRateLimitOption('0/min'))).toMatch(/N\/unit/);
  });

  it('accepts a data file whose folder exists, and nothing else', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vorort-options-'));
    try {
      expect(parseDataFile(join(folder, 'new.sqlite'))).toBe(join(folder, 'new.sqlite'));
      expect(refusal(() => parseDataFile(join(folder, 'missing', 'x.sqlite')))).toMatch(
        /does not exist/,
      );
      expect(refusal(() => parseDataFile(folder))).toMatch(/is not a file/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reads the shapes', () => {
    expect(parseShapesOption('uniform')).toBe('uniform');
    expect(parseShapesOption('real')).toBe('real');
    expect(parseShapesOption('robust')).toBe('robust');
    expect(refusal(() => parseShapesOption('Real'))).toMatch(/"uniform".*"real".*"robust"/);
  });
});

describe('vorort sandbox --shapes', () => {
  // The sandbox command alone (bin/vorort also loads the client), as a child process: it exits.
  const run = (args: string[]) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { Command } from 'commander';
         import { registerSandboxCommand } from './sandbox/cli.ts';
         const program = new Command('vorort');
         registerSandboxCommand(program);
         await program.parseAsync(process.argv.slice(1), { from: 'user' });`,
        'sandbox',
        ...args,
      ],
      { cwd: new URL('..', import.meta.url), encoding: 'utf8', timeout: 60_000 },
    );

  it('refuses a bad value with exit status 2 and one readable line', () => {
    const result = run(['--shapes', 'odd']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--shapes.*"uniform".*"real".*"robust"/);
  });

  it('is listed under --help with its default, beside the unreadable fault', () => {
    const program = new Command('vorort');
    registerSandboxCommand(program);
    const help = program.commands
      .find((command) => command.name() === 'sandbox')!
      .helpInformation()
      .replace(/\s+/g, ' ');
    expect(help).toContain('--shapes <shapes>');
    expect(help).toContain('(default: "uniform")');
    expect(help).toMatch(/kinds: error, throttle, slow, malformed, lost, and unreadable/);
  });
});

describe('vorort sandbox --client-ids', () => {
  it('is listed under --help as off by default', () => {
    const program = new Command('vorort');
    registerSandboxCommand(program);
    const sandbox = program.commands.find((command) => command.name() === 'sandbox')!;
    const help = sandbox.helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(/--client-ids accept a client-generated id \(a UUID in data\.id\)/);
    expect(help).toMatch(/409 already_exists \(default: off/);
    const option = sandbox.options.find((candidate) => candidate.long === '--client-ids')!;
    expect(option.attributeName()).toBe('clientIds');
    expect(option.isBoolean()).toBe(true);
    expect(option.defaultValue).toBe(false);
  });
});

describe('vorort sandbox --admin', () => {
  it('prints the admin URL and token at start, and is off by default', async () => {
    const program = new Command('vorort');
    registerSandboxCommand(program);
    const sandbox = program.commands.find((command) => command.name() === 'sandbox')!;
    const option = sandbox.options.find((candidate) => candidate.long === '--admin')!;
    expect(option.isBoolean()).toBe(true);
    expect(option.defaultValue).toBe(false);

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { Command } from 'commander';
         import { registerSandboxCommand } from './sandbox/cli.ts';
         const program = new Command('vorort');
         registerSandboxCommand(program);
         await program.parseAsync(process.argv.slice(1), { from: 'user' });`,
        'sandbox',
        '--admin',
        '--port',
        '0',
      ],
      { cwd: new URL('..', import.meta.url), stdio: 'pipe' },
    );
    try {
      let stdout = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.includes('Ctrl+C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
      });
      const url = /Admin URL\s+(http:\/\/127\.0\.0\.1:\d+\/_admin)/.exec(stdout)?.[1];
      const token = /Admin token\s+([0-9a-f]{64})/.exec(stdout)?.[1];
      expect(url).toBeDefined();
      const answer = await fetch(`${url}/clock`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('vorort sandbox --register-client', () => {
  it('reads id, secret, redirect addresses and name; a redirect address may hold commas', () => {
    const web = parseClientRegistration(
      'id=hiorg-web,redirect=https://vorort.example.org/hiorg/rueckruf,redirect=https://x.example/cb?a=1,2',
    );
    expect(web).toEqual([
      {
        id: 'hiorg-web',
        redirectUris: ['https://vorort.example.org/hiorg/rueckruf', 'https://x.example/cb?a=1,2'],
      },
    ]);
    expect(
      parseClientRegistration(
        'name=Dienstplan,secret=geheim,id=srv,redirect=https://a.example/cb',
        web,
      ),
    ).toEqual([
      ...web,
      { id: 'srv', secret: 'geheim', name: 'Dienstplan', redirectUris: ['https://a.example/cb'] },
    ]);
  });

  it.each([
    ['id=x', /at least one redirect/],
    ['redirect=https://a.example/cb', /client id/],
    ['id=x,redirect=/rueckruf', /absolute/],
    ['id=x,redirect=https://a.example/cb#top', /fragment/],
    ['id=x,id=y,redirect=https://a.example/cb', /one id/],
    ['id=x,port=1,redirect=https://a.example/cb', /Expected id=ID,redirect=URI/],
    ['id=vorort-desktop,redirect=https://a.example/cb', /registered already/],
  ])('refuses %s', (spec, reason) => {
    expect(refusal(() => parseClientRegistration(spec))).toMatch(reason);
  });

  it('signs a registered client in at its own redirect address; a bad spec exits 2', async () => {
    const command = (args: string[]) => [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { Command } from 'commander';
       import { registerSandboxCommand } from './sandbox/cli.ts';
       const program = new Command('vorort');
       registerSandboxCommand(program);
       await program.parseAsync(process.argv.slice(1), { from: 'user' });`,
      'sandbox',
      ...args,
    ];
    const cwd = new URL('..', import.meta.url);
    const bad = spawnSync(process.execPath, command(['--register-client', 'id=x']), {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--register-client.*at least one redirect/);

    const redirect = 'https://vorort.example.org/hiorg/rueckruf';
    const child = spawn(
      process.execPath,
      command([
        '--register-client',
        `id=hiorg-web,secret=geheim,redirect=${redirect}`,
        '--auto-approve',
        '--port',
        '0',
      ]),
      { cwd, stdio: 'pipe' },
    );
    try {
      let stdout = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.includes('Ctrl+C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
      });
      expect(stdout).toContain(`hiorg-web (confidential: its client_secret, redirect ${redirect})`);
      const authorize = /Authorize URL\s+(\S+)/.exec(stdout)![1]!;
      const url = new URL(authorize);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: 'hiorg-web',
        redirect_uri: redirect,
      }).toString();
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toMatch(
        /^https:\/\/vorort\.example\.org\/hiorg\/rueckruf\?code=/,
      );
    } finally {
      child.kill('SIGTERM');
    }
  });
});
