// Files in temporary folders for one test file: real SQLite files, removed when the file's tests end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Call at a test file's top level; the returned function names a new file in a new folder. */
export function temporaryFiles(prefix: string): (name: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (name) => {
    const dir = mkdtempSync(join(tmpdir(), `vorort-${prefix}-`));
    dirs.push(dir);
    return join(dir, name);
  };
}
