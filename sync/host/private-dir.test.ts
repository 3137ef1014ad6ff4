// The user data folder: a folder Vorort creates is the owner's alone (0700); one that exists keeps
// its mode (--user-data pointing at a folder with a sticky bit or shared on purpose), and one that
// other users may write to is refused with a message that says what to do.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from './files';

const dir = mkdtempSync(join(tmpdir(), 'vorort-private-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o7777;

describe.skipIf(process.platform === 'win32')('the user data folder', () => {
  it('creates missing folders 0700, parents included', () => {
    const folder = join(dir, 'new', 'Vorort');
    ensurePrivateDir(folder);
    expect(mode(folder)).toBe(0o700);
    expect(mode(join(dir, 'new'))).toBe(0o700);
  });

  it("leaves an existing folder's mode alone (a sticky bit, group access)", () => {
    const folder = join(dir, 'shared-read');
    ensurePrivateDir(folder);
    chmodSync(folder, 0o1750);
    ensurePrivateDir(folder);
    expect(mode(folder)).toBe(0o1750);
  });

  it('refuses an existing folder that other users may write to', () => {
    const folder = join(dir, 'open');
    ensurePrivateDir(folder);
    for (const open of [0o777, 0o1777, 0o770]) {
      chmodSync(folder, open);
      expect(() => ensurePrivateDir(folder), open.toString(8)).toThrow(
        /may be written by other users .*choose a folder of your own/,
      );
      expect(mode(folder)).toBe(open);
    }
  });
});
