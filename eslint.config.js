// Lint rules, including the allowed imports between rooms (see shared DESIGN.md, "Rooms").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import rooms from './eslint-rooms.js';

// A constraint names packages and repository paths (a path covers its folder, whatever the import's
// spelling); `except` makes exceptions, `only` lists all a room may import of its kind.
const never = (targets, message, except) => ({
  never: targets,
  message,
  ...(except && { except }),
});
const only = (targets, message) => ({ only: targets, message });
const ui = never(
  { packages: ['react', 'react-dom', 'zustand'], paths: ['renderer'] },
  'the UI lives in renderer/ only',
);
const electronHost = never(
  { packages: ['electron'], paths: ['electron'] },
  'only electron/ may use Electron',
);
const noSandbox = never({ paths: ['sandbox'] }, 'sync/ must not depend on the sandbox');
const sandboxApart = never(
  { paths: ['sync'] },
  'the sandbox must not share the client’s code (or its bugs)',
);
const sqliteInDb = never(
  { packages: ['better-sqlite3'] },
  'SQLite is sync/db’s: import better-sqlite3 there only (its connection type is Sqlite from sync/db)',
);
const electronSandbox = never(
  { paths: ['sandbox'] },
  'electron/ may use the sandbox only for the demo, in electron/demo.ts and electron/browser-main.ts',
);
/** The contract is the renderer's too: what it imports runs in a browser. */
const contractFiles = ['sync/contract/**', 'sync/contract.ts', 'sync/core-error.ts'];
const contractOnly = only(
  { packages: ['zod'], paths: ['sync/contract', 'sync/core-error'] },
  'the renderer imports the contract: it may import only zod and the contract (no Node, SQLite or kysely)',
);

/** The room rule for some files: what they may import (see eslint-rooms.js). */
function room(files, ...constraints) {
  return { files, rules: { 'rooms/imports': ['error', ...constraints] } };
}

/** The room rule for each part of sync/ (not its tests), with the parts above it refused. */
function syncParts(parts) {
  return parts.map(([part, above]) => ({
    ...room(
      [`sync/${part}/**`],
      ui,
      electronHost,
      noSandbox,
      ...(part === 'db' ? [] : [sqliteInDb]),
      never(
        { paths: above.map((name) => `sync/${name}`) },
        `sync/${part} is below ${above.join(', ')}: it may not import them (shared DESIGN.md, rooms)`,
      ),
    ),
    ignores: ['**/*.test.ts'],
  }));
}

export default tseslint.config(
  {
    // .scratch: a developer's throwaway scripts (git ignores them too), never part of a check.
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'coverage/**',
      'test-artifacts/**',
      '.scratch/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain JavaScript entry points run in Node.
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { plugins: { rooms } },
  // Small modules (issue 20): a source file of the core or the screens over 500 lines is split by
  // what it holds. Blank lines and comments count; tests may be longer.
  {
    files: ['sync/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/test-support/**'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  room(['sync/**'], ui, electronHost, noSandbox, sqliteInDb),
  // Tests beside the core start the real sandbox (no mocks of the service): its entry point only.
  room(
    ['sync/**/*.test.ts'],
    ui,
    electronHost,
    never({ paths: ['sandbox'] }, 'tests may start the sandbox through sandbox/server only', {
      paths: ['sandbox/server'],
    }),
  ),
  room(['sandbox/**'], ui, electronHost, sandboxApart),
  // The admin interface sits on top of the sandbox: it may use the data and the interface's
  // helpers, never the other way round (the interface works the same without it).
  room(
    ['sandbox/http/**', 'sandbox/data/**', 'sandbox/auth/**'],
    ui,
    electronHost,
    sandboxApart,
    never(
      { paths: ['sandbox/admin'] },
      'the admin interface builds on sandbox/data and sandbox/http, not the reverse',
    ),
  ),
  { ...room(contractFiles, contractOnly), ignores: ['**/*.test.ts'] },
  // The other parts of sync/, lowest first: each may import only the parts below it (tests may cross).
  // host: the app session and browser mode's server, above dispatch and scheduler, below cli.
  // export: files from the replica (issue 13), beside queries: it reads db (queries' helpers, the
  // feed's address from pull); dispatch, the host and the CLI call it.
  ...syncParts([
    [
      'api',
      [
        'auth',
        'resources',
        'db',
        'outbox',
        'pull',
        'queries',
        'export',
        'dispatch',
        'scheduler',
        'host',
        'cli',
      ],
    ],
    [
      'auth',
      [
        'resources',
        'db',
        'outbox',
        'pull',
        'queries',
        'export',
        'dispatch',
        'scheduler',
        'host',
        'cli',
      ],
    ],
    ['db', ['auth', 'outbox', 'pull', 'queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['outbox', ['auth', 'pull', 'queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['pull', ['queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['queries', ['export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['export', ['api', 'auth', 'outbox', 'dispatch', 'scheduler', 'host', 'cli']],
    ['dispatch', ['scheduler', 'host', 'cli']],
    ['scheduler', ['dispatch', 'host', 'cli']],
    ['host', ['cli']],
  ]),
  // One module per service resource (issue 20): above the service client, beside the replica's
  // types. It declares SQL text for its hooks but runs none (the outbox does), so it imports no
  // package and of sync/db only the schema's types; db (the writer's keys), outbox, pull,
  // queries and the parts above them may import it, api and auth may not, nor the renderer.
  {
    ...room(
      ['sync/resources/**'],
      only(
        {
          packages: [],
          paths: ['sync/resources', 'sync/api', 'sync/contract', 'sync/db/schema'],
        },
        'sync/resources may import only sync/api, the contract and the types of sync/db/schema',
      ),
    ),
    ignores: ['**/*.test.ts'],
  },
  // The Electron host may start the sandbox only for the demo: electron/demo.ts (the session's
  // DemoProvider) and electron/browser-main.ts (browser mode's entry, which hands it over).
  // Later entries override earlier ones for the files they name.
  room(['electron/**'], ui, electronSandbox, sqliteInDb),
  room(['electron/demo.ts', 'electron/browser-main.ts'], ui, sqliteInDb),
  // These load better-sqlite3's native module for Electron's ABI (see electron/native-sqlite.ts).
  room(
    [
      'electron/native-sqlite.ts',
      'electron/demo-worker.ts',
      'electron/build-native.mjs',
      'electron/main.ts',
    ],
    ui,
    electronSandbox,
  ),
  room(['electron/**/*.test.ts'], ui),
  room(
    ['renderer/**'],
    only(
      { paths: ['renderer', 'sync/contract'] },
      'the renderer talks to the core only through sync/contract',
    ),
    never({ packages: ['electron'] }, 'only electron/ may use Electron'),
    never(
      { packages: ['node:*', 'better-sqlite3', 'kysely'] },
      'the renderer runs in a browser sandbox',
    ),
  ),
);
