// The allowed imports between rooms (shared DESIGN.md) are a lint rule: check that it holds.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function roomErrors(file: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const used = value;\n`, {
    filePath: file,
  });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'rooms/imports').map((m) => m.message);
}

describe('room boundaries', () => {
  it.each([
    ['sandbox/http/x.ts', "import { value } from '../../sync/contract';"],
    ['sync/pull/x.ts', "import { value } from '../../sandbox/server';"],
    ['sync/pull/x.ts', "import { value } from 'electron';"],
    ['sync/pull/x.ts', "import { value } from 'react';"],
    ['renderer/x.ts', "import { value } from '../sync/db/open';"],
    ['renderer/x.ts', "import { value } from 'node:fs';"],
    ['sync/api/x.test.ts', "import { value } from '../../sandbox/data/memory-store';"],
    // The parts of sync/: each only what lies below it.
    ['sync/outbox/x.ts', "import { value } from '../pull/engine';"],
    ['sync/pull/x.ts', "import { value } from '../queries';"],
    ['sync/pull/collections/x.ts', "import { value } from '../../scheduler/sync-once';"],
    ['sync/db/x.ts', "import { value } from '../outbox/write';"],
    ['sync/api/x.ts', "import { value } from '../db/open';"],
    ['sync/contract.ts', "import { value } from './db/open';"],
    ['sync/queries/x.ts', "import { value } from '../dispatch';"],
    // Exports read the replica; they never talk to the service, and what they build on never needs them.
    ['sync/export/x.ts', "import { value } from '../api';"],
    ['sync/export/x.ts', "import { value } from '../host/session';"],
    ['sync/queries/x.ts', "import { value } from '../export';"],
    ['sync/pull/x.ts', "import { value } from '../export';"],
    ['sandbox/http/x.ts', "import { value } from '../admin/journal';"],
    ['sandbox/data/x.ts', "import { value } from '../admin/journal';"],
    ['sandbox/http/x.ts', "import { value } from '../../sync/contract';"],
    // The app session sits above dispatch and scheduler and never uses Electron or the sandbox.
    ['sync/scheduler/x.ts', "import { value } from '../host/session';"],
    ['sync/dispatch/x.ts', "import { value } from '../host/session';"],
    ['sync/host/x.ts', "import { value } from '../cli/index';"],
    ['sync/host/x.ts', "import { value } from 'electron';"],
    ['sync/host/x.ts', "import { value } from '../../sandbox/server';"],
    ['electron/main.ts', "import { value } from '../sandbox/server';"],
    ['electron/x.ts', "import { value } from 'react';"],
    // Imports are resolved before they are checked, however they are written or loaded.
    ['sync/pull/x.ts', "import { value } from '../../sync/host/session';"],
    ['sync/pull/x.ts', "import { value } from '../outbox/../host/session';"],
    ['sync/pull/x.ts', "export { value } from '../../sync/host/session';"],
    ['sync/pull/x.ts', "const value = await import('../host/session');"],
    ['sync/pull/x.ts', "import { value } from '../../renderer/stores';"],
    ['renderer/screens/x.tsx', "import { value } from '../../sync/db/open';"],
    ['renderer/x.ts', "import { value } from '../sync/core-error';"],
    ['renderer/x.ts', "import { value } from '../sandbox/server';"],
    ['renderer/x.ts', "import { value } from 'fs';"],
    ['renderer/x.ts', "import { value } from 'kysely';"],
    // The renderer imports the contract: it runs in a browser and imports only zod and itself.
    ['sync/contract/x.ts', "import { value } from 'node:fs';"],
    ['sync/contract/x.ts', "import { value } from 'fs';"],
    ['sync/contract/x.ts', "import type { value } from 'better-sqlite3';"],
    ['sync/contract/x.ts', "import { value } from 'kysely';"],
    ['sync/contract/x.ts', "import { value } from 'date-fns';"],
    ['sync/contract/x.ts', "import { value } from '../outbox/write';"],
    ['sync/contract/x.ts', "import { value } from '../export';"],
    ['sync/core-error.ts', "import { value } from './db/open';"],
    // SQLite is sync/db's: other rooms use its connection type from there.
    ['sync/outbox/x.ts', "import type { value } from 'better-sqlite3';"],
    ['sync/queries/x.ts', "import { value } from 'better-sqlite3';"],
    ['sync/host/x.ts', "import { value } from 'better-sqlite3';"],
    ['electron/x.ts', "import { value } from 'better-sqlite3';"],
    // The resources' modules (issue 20): above the service client, beside the replica's types.
    ['sync/resources/x.ts', "import { value } from '../db/open';"],
    ['sync/resources/x.ts', "import type { value } from 'better-sqlite3';"],
    ['sync/resources/x.ts', "import { value } from 'kysely';"],
    ['sync/resources/x.ts', "import { value } from 'node:fs';"],
    ['sync/resources/x.ts', "import { value } from '../outbox/records';"],
    ['sync/resources/x.ts', "import { value } from '../../sync/pull/context';"],
    ['sync/api/x.ts', "import { value } from '../resources';"],
    ['sync/auth/x.ts', "import { value } from '../resources/course';"],
    ['sync/contract/x.ts', "import { value } from '../resources';"],
    ['renderer/x.ts', "import { value } from '../sync/resources';"],
  ])('%s may not %s', async (file, line) => {
    expect(await roomErrors(file, line)).not.toEqual([]);
  });

  it.each([
    ['renderer/x.ts', "import { value } from '../sync/contract';"],
    ['electron/x.ts', "import { value } from '../sync/contract';"],
    ['sync/api/x.test.ts', "import { value } from '../../sandbox/server';"],
    ['test/x.test.ts', "import { value } from '../sandbox/data/memory-store';"],
    ['sync/pull/x.ts', "import { value } from '../outbox/conflicts';"],
    ['sync/cli/x.ts', "import { value } from '../scheduler/sync-once';"],
    ['sync/db/x.test.ts', "import { value } from '../pull/engine';"],
    ['sandbox/admin/x.ts', "import { value } from '../http/context';"],
    ['sandbox/admin/x.ts', "import { value } from '../data/store';"],
    ['sync/host/x.ts', "import { value } from '../dispatch';"],
    ['sync/host/x.ts', "import { value } from '../export';"],
    ['sync/cli/x.ts', "import { value } from '../export/write-file';"],
    ['sync/export/x.ts', "import { value } from '../queries/record';"],
    ['sync/host/x.ts', "import { value } from '../scheduler';"],
    ['sync/host/x.ts', "import { value } from '../pull/worker';"],
    ['sync/cli/x.ts', "import { value } from '../host/session';"],
    ['electron/demo.ts', "import { value } from '../sandbox/server';"],
    ['electron/browser-main.ts', "import { value } from '../sandbox/server';"],
    ['electron/main.ts', "import { value } from '../sync/host/session';"],
    ['sync/host/x.ts', "import { value } from '../../sync/dispatch';"],
    ['renderer/screens/courses/x.tsx', "import { value } from '../../contract';"],
    ['renderer/x.ts', "import { value } from '../sync/contract/commands';"],
    ['renderer/x.ts', "import { value } from 'react-dom/client';"],
    ['sync/contract/x.ts', "import { value } from 'zod';"],
    ['sync/contract/x.ts', "import { value } from '../contract';"],
    ['sync/contract/x.ts', "import { value } from './commands';"],
    // The contract's own export calls, not the room sync/export.
    ['sync/contract/host.ts', "import { value } from './export';"],
    ['sync/core-error.ts', "import { value } from './contract';"],
    ['sync/db/x.ts', "import { value } from 'better-sqlite3';"],
    ['sync/outbox/x.ts', "import type { value } from '../db/sqlite';"],
    ['sync/outbox/x.test.ts', "import { value } from 'better-sqlite3';"],
    ['electron/native-sqlite.ts', "import { value } from 'better-sqlite3';"],
    ['sync/resources/x.ts', "import type { value } from '../db/schema';"],
    ['sync/resources/x.ts', "import { value } from '../api';"],
    ['sync/resources/x.ts', "import type { value } from '../contract';"],
    ['sync/resources/x.ts', "import { value } from './columns';"],
    ['sync/resources/x.test.ts', "import { value } from '../db/open';"],
    ['sync/db/x.ts', "import { value } from '../resources';"],
    ['sync/outbox/x.ts', "import { value } from '../resources';"],
    ['sync/pull/collections/x.ts', "import { value } from '../../resources/course';"],
    ['sync/queries/x.ts', "import { value } from '../resources';"],
  ])('%s may %s', async (file, line) => {
    expect(await roomErrors(file, line)).toEqual([]);
  });
});
