// The user data folder of the app: created 0700 (an existing one others may write to is
// refused), its files 0600 (the replica, the settings, the file-based secret store), each written
// atomically (temporary file + rename), so a process killed halfway leaves the old content, never
// half of the new. settings.json is read field by
// field: a hand-edited value that does not fit falls back to its default alone.
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import {
  appSettingsUpdate,
  type AccountInfo,
  type AppSettings,
  type SignedInUser,
} from '../contract';
import { DEFAULT_SYNC_OPTIONS } from '../pull/options';
import { writePrivateFile } from '../auth/private-file';

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

/**
 * Creates the folder (and its missing parents) as the owner's alone (0700). A folder that exists
 * keeps its mode (a sticky bit, access given on purpose), but one that other users may write to,
 * or that belongs to another user, is refused: they could replace the replica or the login in it.
 */
export function ensurePrivateDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first !== undefined) {
    // Created here: the mode past the umask, for it and the parents created with it.
    for (let folder = resolve(dir); ; folder = dirname(folder)) {
      chmodSync(folder, 0o700);
      if (folder === resolve(first) || folder === dirname(folder)) break;
    }
    return;
  }
  // Windows keeps its rights in ACLs, which the mode does not show.
  if (platform === 'win32') return;
  const stat = statSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && stat.uid !== uid)
    throw new Error(
      `The user data folder ${dir} belongs to another user: choose a folder of your own (--user-data DIR).`,
    );
  if ((stat.mode & 0o022) !== 0)
    throw new Error(
      `The user data folder ${dir} may be written by other users (mode ${(stat.mode & 0o7777).toString(8)}): ` +
        `choose a folder of your own (--user-data DIR), or make it yours alone (chmod go-w ${dir}).`,
    );
}

/** Writes the file through a temporary beside it (random name, created exclusively, 0600), then renames it. */
export { writePrivateFile } from '../auth/private-file';

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
const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()).nullable().optional(),
});
const demoRoleSchema = z.enum(['office', 'trainer']);

/** The app's settings before anybody changed one: the sync's own defaults for the course window. */
export const DEFAULT_APP_SETTINGS: AppSettings = {
  profile: 'office',
  courseMonthsBack: DEFAULT_SYNC_OPTIONS.courseMonthsBack,
  courseMonthsAhead: DEFAULT_SYNC_OPTIONS.courseMonthsAhead,
  language: null,
  theme: 'system',
};

/**
 * What settings.json keeps: the account (not secret), who signed in last, the demo's role (which
 * demo account the replica belongs to), whether the person chose the profile, the app's settings.
 */
export interface Settings {
  account: AccountInfo | null;
  user: SignedInUser | null;
  demoRole: 'office' | 'trainer';
  /** The person chose the sync profile (settings.update): it is no longer chosen for them. */
  profileChosen: boolean;
  app: AppSettings;
}

export const EMPTY_SETTINGS: Settings = {
  account: null,
  user: null,
  demoRole: 'office',
  profileChosen: false,
  app: DEFAULT_APP_SETTINGS,
};

/** One member read with its schema: what does not fit (a hand-edited file) is its default. */
function member<T>(schema: z.ZodType<T>, value: unknown, fallback: T): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

/** The app's settings from whatever the file holds, field by field. */
export function readAppSettings(value: unknown): AppSettings {
  const stored =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const fields = appSettingsUpdate.shape;
  const settings = { ...DEFAULT_APP_SETTINGS };
  for (const key of Object.keys(DEFAULT_APP_SETTINGS) as (keyof AppSettings)[]) {
    if (key === 'language' && stored.language === null) continue;
    const parsed = fields[key].safeParse(stored[key]);
    if (parsed.success && parsed.data !== undefined)
      (settings as Record<string, unknown>)[key] = parsed.data;
  }
  return settings;
}

export function readSettings(path: string): Settings {
  const text = readOptionalFile(path);
  if (text === null) return EMPTY_SETTINGS;
  let stored: Record<string, unknown>;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return EMPTY_SETTINGS;
    stored = parsed as Record<string, unknown>;
  } catch {
    return EMPTY_SETTINGS;
  }
  return {
    account: member(accountSchema.nullable(), stored.account, null),
    user: member(userSchema.nullable(), stored.user, null),
    demoRole: member(demoRoleSchema, stored.demoRole, 'office'),
    profileChosen: member(z.boolean(), stored.profileChosen, false),
    app: readAppSettings(stored.app),
  };
}

export function writeSettings(path: string, settings: Settings): void {
  writePrivateFile(path, `${JSON.stringify(settings, null, 2)}\n`);
}
