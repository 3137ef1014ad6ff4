// The user data folder of the app: created 0700, its files 0600 (the replica, the settings, the
// file-based secret store), each written atomically (temporary file + rename), so a process
// killed halfway leaves the old content, never half of the new.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { AccountInfo } from '../contract';

/** Where the secret (the tokens) is kept: Electron's safeStorage, or a 0600 file (Node, browser mode). */
export interface SecretStore {
  read(): Promise<string | null>;
  write(value: string): Promise<void>;
  clear(): Promise<void>;
}

export const userDataFiles = (dir: string) => ({
  replica: join(dir, 'replica.sqlite'),
  settings: join(dir, 'settings.json'),
  demo: join(dir, 'demo'),
});

/** Creates the folder (and its parents) and makes it the owner's alone. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Writes the file through a temporary beside it with mode 0600, then renames it into place. */
export function writePrivateFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    // The mode applies only to a new file: a temporary left by a killed process keeps its own.
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The file's text, or null when there is none. */
export function readOptionalFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A secret kept in a JSON file with mode 0600 (Node tests and browser mode). */
export function fileSecretStore(path: string): SecretStore {
  return {
    async read() {
      const text = readOptionalFile(path);
      if (text === null) return null;
      try {
        const parsed = JSON.parse(text) as unknown;
        return typeof parsed === 'object' && parsed !== null && 'secret' in parsed
          ? String((parsed as { secret: unknown }).secret)
          : null;
      } catch {
        return null;
      }
    },
    async write(value) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writePrivateFile(path, `${JSON.stringify({ secret: value })}\n`);
    },
    async clear() {
      rmSync(path, { force: true });
    },
  };
}

const accountSchema = z.object({
  baseUrl: z.string(),
  authUrl: z.string(),
  tokenUrl: z.string(),
  clientId: z.string(),
  demo: z.boolean(),
});

const settingsSchema = z.object({
  account: accountSchema.nullable().default(null),
  user: z.object({ id: z.string(), name: z.string() }).nullable().default(null),
});

/** What settings.json keeps: the account (not secret) and who signed in last. */
export type Settings = { account: AccountInfo | null; user: { id: string; name: string } | null };

export function readSettings(path: string): Settings {
  const text = readOptionalFile(path);
  if (text === null) return { account: null, user: null };
  try {
    const parsed = settingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { account: null, user: null };
  } catch {
    return { account: null, user: null };
  }
}

export function writeSettings(path: string, settings: Settings): void {
  writePrivateFile(path, `${JSON.stringify(settings, null, 2)}\n`);
}
