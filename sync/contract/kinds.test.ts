// Every call of the contract declares its kind, the reads the tables they read, the writes the
// tables they write; and the contract the renderer imports stays free of Node, SQLite and kysely.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CALL_KIND_NAMES,
  CALL_KINDS,
  CALL_READS,
  CALL_WRITES,
  commands,
  hostCalls,
  isWriteCall,
  queries,
  WRITE_COMMANDS,
} from '../contract';

const everyName = [...Object.keys(queries), ...Object.keys(commands), ...Object.keys(hostCalls)];
const ofKind = (kind: string) =>
  Object.entries(CALL_KINDS)
    .filter(([, k]) => k === kind)
    .map(([name]) => name)
    .sort();

describe('CALL_KINDS', () => {
  it('gives every call of the contract one kind, and nothing else', () => {
    expect(new Set(everyName).size).toBe(everyName.length);
    expect(Object.keys(CALL_KINDS).sort()).toEqual([...everyName].sort());
    for (const kind of Object.values(CALL_KINDS)) expect(CALL_KIND_NAMES).toContain(kind);
  });

  it('declares the tables of every read and every write', () => {
    expect(ofKind('read')).toEqual(Object.keys(CALL_READS).sort());
    expect(ofKind('write')).toEqual(Object.keys(CALL_WRITES).sort());
    for (const tables of Object.values(CALL_WRITES)) expect(tables.length).toBeGreaterThan(0);
  });

  it('says which calls change the replica or the outbox here', () => {
    for (const name of Object.keys(WRITE_COMMANDS)) expect(isWriteCall(name), name).toBe(true);
    for (const name of ['outbox.retry', 'outbox.edit', 'outbox.discard', 'conflicts.resolve'])
      expect(isWriteCall(name), name).toBe(true);
    // The lists read; the refresh fetches from the service; the host's calls are the session's.
    for (const name of ['outbox.list', 'conflicts.list', 'courses.list', 'sync.refresh'])
      expect(isWriteCall(name), name).toBe(false);
    for (const name of Object.keys(hostCalls)) expect(isWriteCall(name), name).toBe(false);
    expect(isWriteCall('no.such.call')).toBe(false);
    expect(isWriteCall('toString')).toBe(false);
  });
});

describe('the contract the renderer imports', () => {
  it('imports only zod and itself (no Node, SQLite or kysely)', () => {
    const folder = join(import.meta.dirname, '..');
    const files = [
      join(folder, 'contract.ts'),
      ...readdirSync(join(folder, 'contract'))
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .map((name) => join(folder, 'contract', name)),
    ];
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)) {
        const spec = match[1] ?? match[2]!;
        const inContract =
          spec === 'zod' ||
          (file.endsWith('contract.ts') && !file.includes('/contract/')
            ? spec.startsWith('./contract/')
            : spec.startsWith('./') || spec === '../contract');
        if (!inContract) outside.push(`${file.slice(folder.length + 1)}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
