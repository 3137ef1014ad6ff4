// A private file written atomically: a temporary beside it with a random name, created exclusively
// ('wx': a file or a symlink planted at its name is never followed or reused) with mode 0600, then
// renamed into place, so a process killed halfway leaves the old content, never half of the new.
// Shared by the CLI's token file (sync/auth) and the app's user data files (sync/host/files.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export function writePrivateFile(path: string, text: string): void {
  const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    // Ours alone (created above): a failed write leaves nothing behind.
    rmSync(temporary, { force: true });
    throw error;
  }
}
