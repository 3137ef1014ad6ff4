// The safeStorage secret store in Node, with a stand-in for Electron's safeStorage: encrypted in
// a 0600 file, read back, cleared; no encryption: refused in words, nothing written; Linux's
// basic_text backend (no encryption until plain-text encryption is asked for, as in Electron):
// stored with a warning; a key store that changed: signed out, not a crash.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CoreFailure } from '../sync/core-error';
import { protection, safeStorageSecretStore, type SafeStorageLike } from './safe-storage';

const dir = mkdtempSync(join(tmpdir(), 'vorort-safe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * XOR with a key: enough to tell encrypted from plain text, and a changed key from the right one.
 * As Electron does on Linux, basic_text reports no encryption until setUsePlainTextEncryption(true).
 */
function fakeSafeStorage(options: { available?: boolean; backend?: string; key?: number } = {}) {
  const state = {
    available: options.available ?? true,
    key: options.key ?? 0x5a,
    plainText: false,
  };
  const basicText = options.backend === 'basic_text';
  const storage: SafeStorageLike = {
    isEncryptionAvailable: () => (basicText ? state.plainText : state.available),
    setUsePlainTextEncryption: (usePlainText) => {
      state.plainText = usePlainText;
    },
    encryptString: (text) => {
      if (basicText && !state.plainText) throw new Error('Encryption is not available');
      return Buffer.from([...Buffer.from(`ok:${text}`)].map((b) => b ^ state.key));
    },
    decryptString: (data) => {
      const text = Buffer.from([...data].map((b) => b ^ state.key)).toString();
      if (basicText && !state.plainText) throw new Error('Encryption is not available');
      if (!text.startsWith('ok:')) throw new Error('Error while decrypting the ciphertext');
      return text.slice(3);
    },
    ...(options.backend ? { getSelectedStorageBackend: () => options.backend as string } : {}),
  };
  return { storage, state };
}

describe('the safeStorage secret store', () => {
  it('keeps the secret encrypted in a 0600 file, reads it back and clears it', async () => {
    const file = join(dir, 'a', 'secrets.bin');
    const { storage } = fakeSafeStorage();
    const store = safeStorageSecretStore(file, storage, { platform: 'darwin' });
    expect(await store.read()).toBeNull();
    await store.write('{"refreshToken":"r-123"}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('r-123');
    expect(await store.read()).toBe('{"refreshToken":"r-123"}');
    await store.clear();
    expect(existsSync(file)).toBe(false);
    await store.clear();
  });

  it('refuses to store without encryption, saying so in both languages, and writes nothing', async () => {
    const file = join(dir, 'b', 'secrets.bin');
    const warnings: string[] = [];
    const { storage } = fakeSafeStorage({ available: false });
    const store = safeStorageSecretStore(file, storage, {
      platform: 'win32',
      warn: (text) => warnings.push(text),
    });
    const refused = await store.write('secret').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CoreFailure);
    expect((refused as CoreFailure).code).toBe('login_failed');
    expect((refused as CoreFailure).messages.de).toContain('nicht im Klartext');
    expect((refused as CoreFailure).messages.en).toContain('not keep it in plain text');
    expect(existsSync(file)).toBe(false);
    await store.write('secret').catch(() => undefined);
    expect(warnings).toHaveLength(1);
  });

  it('stores with a warning on Linux with the basic_text backend (no key store running)', async () => {
    const file = join(dir, 'c', 'secrets.bin');
    const warnings: string[] = [];
    const { storage } = fakeSafeStorage({ backend: 'basic_text' });
    expect(protection(storage, 'linux')).toBe('weak');
    expect(protection(fakeSafeStorage({ backend: 'gnome_libsecret' }).storage, 'linux')).toBe(
      'encrypted',
    );
    expect(protection(fakeSafeStorage({ available: false }).storage, 'linux')).toBe('none');
    const store = safeStorageSecretStore(file, storage, {
      platform: 'linux',
      warn: (text) => warnings.push(text),
    });
    await store.write('secret');
    await store.write('secret2');
    expect(await store.read()).toBe('secret2');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('basic_text');
    // The next start: a fresh safeStorage reads the login back before anything is written.
    const restarted = safeStorageSecretStore(
      file,
      fakeSafeStorage({ backend: 'basic_text' }).storage,
      {
        platform: 'linux',
      },
    );
    expect(await restarted.read()).toBe('secret2');
  });

  it('answers "no secret" (sign in again) for a changed key, a foreign file or no key store', async () => {
    const file = join(dir, 'd', 'secrets.bin');
    const { storage, state } = fakeSafeStorage();
    const store = safeStorageSecretStore(file, storage, { platform: 'darwin' });
    await store.write('secret');
    state.key = 0x33;
    expect(await store.read()).toBeNull();
    state.key = 0x5a;
    state.available = false;
    expect(await store.read()).toBeNull();
    state.available = true;
    expect(await store.read()).toBe('secret');
    writeFileSync(file, '{"secret":"plain"}');
    expect(await store.read()).toBeNull();
    writeFileSync(file, 'garbage');
    expect(await store.read()).toBeNull();
  });
});
