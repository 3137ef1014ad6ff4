// The app's SecretStore (sync/host/session.ts) on Electron's safeStorage: the tokens encrypted
// with the OS's key store (Keychain, DPAPI, libsecret/kwallet) in a 0600 file in the user data
// folder, written atomically. Where the OS offers no encryption, nothing is stored (the login
// then fails saying so: a plain-text token on disk is worse than signing in again); on Linux
// with Electron's "basic_text" backend (no key store running) the secret is stored with a
// warning, as Chromium does with its own passwords there. Electron reports encryption as
// unavailable under basic_text until setUsePlainTextEncryption(true) was called: the store calls
// it there (only there: with a key store it would weaken nothing, but is not needed).
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { CoreFailure } from '../sync/core-error';
import { readOptionalFile, writePrivateFile } from '../sync/host/files';
import type { SecretStore } from '../sync/host/session';

/** The part of Electron's safeStorage the store uses (plain objects stand in for it in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron ("unknown" before the app is ready). */
  getSelectedStorageBackend?(): string;
  /** Linux only in Electron: basic_text's fixed key, else encryption stays unavailable there. */
  setUsePlainTextEncryption?(usePlainText: boolean): void;
}

export interface SafeStorageStoreOptions {
  platform?: NodeJS.Platform;
  /** Told once per kind of problem (a console line, a log). */
  warn?: (text: string) => void;
}

/** The refusal to store without encryption: a login_failed in words (the session passes it on). */
export const NO_ENCRYPTION = () =>
  new CoreFailure('login_failed', {
    de: 'Dieser Computer bietet keinen verschlüsselten Speicher für die Anmeldung (keinen Schlüsselbund): Vorort legt sie nicht im Klartext ab. Bitte den Schlüsselbund des Systems einrichten.',
    en: 'This computer offers no encrypted storage for the login (no key store): Vorort does not keep it in plain text. Please set up the system’s key store.',
  });

/** What the store stands on: encrypted, weakly (Linux basic_text), or not at all. */
export function protection(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform = process.platform,
): 'encrypted' | 'weak' | 'none' {
  const basicText =
    platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text';
  if (basicText && !safeStorage.isEncryptionAvailable())
    safeStorage.setUsePlainTextEncryption?.(true);
  if (!safeStorage.isEncryptionAvailable()) return 'none';
  return basicText ? 'weak' : 'encrypted';
}

const FORMAT = 'vorort-safestorage-1';

export function safeStorageSecretStore(
  path: string,
  safeStorage: SafeStorageLike,
  options: SafeStorageStoreOptions = {},
): SecretStore {
  const platform = options.platform ?? process.platform;
  const warned = new Set<string>();
  const warn = (kind: string, text: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    options.warn?.(text);
  };
  return {
    async read() {
      const text = readOptionalFile(path);
      if (text === null) return null;
      let encrypted: Buffer;
      try {
        const parsed = JSON.parse(text) as { format?: unknown; data?: unknown };
        if (parsed.format !== FORMAT || typeof parsed.data !== 'string') return null;
        encrypted = Buffer.from(parsed.data, 'base64');
      } catch {
        return null;
      }
      if (protection(safeStorage, platform) === 'none') {
        warn(
          'read',
          'Vorort: the login cannot be read (the OS key store is not available): please sign in again.',
        );
        return null;
      }
      try {
        return safeStorage.decryptString(encrypted);
      } catch {
        // Another key (a new key store, another user): the login is lost, not the data.
        warn(
          'decrypt',
          'Vorort: the stored login cannot be decrypted (the OS key store changed): please sign in again.',
        );
        return null;
      }
    },
    async write(value) {
      const level = protection(safeStorage, platform);
      if (level === 'none') {
        const refusal = NO_ENCRYPTION();
        warn('none', `Vorort: ${refusal.messages.en}`);
        throw refusal;
      }
      if (level === 'weak')
        warn(
          'weak',
          'Vorort: no key store (GNOME Keyring, KWallet) is running: the login is stored only obfuscated (Electron basic_text), readable by anyone who can read your files.',
        );
      const data = safeStorage.encryptString(value).toString('base64');
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writePrivateFile(path, `${JSON.stringify({ format: FORMAT, data })}\n`);
    },
    async clear() {
      rmSync(path, { force: true });
    },
  };
}
