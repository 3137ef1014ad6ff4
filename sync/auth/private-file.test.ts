// The token file written back after a refresh, and every private file: a random temporary created
// exclusively with mode 0600, so a symlink planted at a name another user could guess (the old
// `<file>.<pid>.tmp`) is never followed into a file of theirs or ours.
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePrivateFile } from './private-file';
import { readTokenFile, writeTokenFile } from './token-file';

const dir = mkdtempSync(join(tmpdir(), 'vorort-private-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a private file', () => {
  it('is written through a random temporary, never through a planted symlink', () => {
    const tokens = join(dir, 'tokens.json');
    writeFileSync(tokens, JSON.stringify({ access_token: 'old' }), { mode: 0o600 });
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    symlinkSync(victim, `${tokens}.${process.pid}.tmp`);

    writeTokenFile(tokens, { access_token: 'new', refresh_token: 'r' });

    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    expect(readTokenFile(tokens)).toEqual({ access_token: 'new', refresh_token: 'r' });
    expect(lstatSync(tokens).isSymbolicLink()).toBe(false);
    expect(statSync(tokens).mode & 0o777).toBe(0o600);
    // Nothing left beside it but the planted link.
    expect(readdirSync(dir).sort()).toEqual(
      ['tokens.json', `tokens.json.${process.pid}.tmp`, 'victim.txt'].sort(),
    );
  });

  it('replaces a file another wrote with a 0600 one of its own', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, 'old', { mode: 0o644 });
    writePrivateFile(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
