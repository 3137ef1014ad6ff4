// Lint rules, including the allowed imports between rooms (see shared DESIGN.md, "Rooms").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const never = (group, message) => ({ group, message });
const ui = never(
  ['react', 'react-dom', 'react/*', 'zustand', '**/renderer/**'],
  'the UI lives in renderer/ only',
);
const electronHost = never(['electron', '**/electron/**'], 'only electron/ may use Electron');
const noSandbox = never(['**/sandbox/**'], 'sync/ must not depend on the sandbox');
const sandboxApart = never(
  ['**/sync/**'],
  'the sandbox must not share the client’s code (or its bugs)',
);

/** One restricted-imports rule per room: what each folder must never import. */
function room(files, ...groups) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: groups }] } };
}

/** The sync room's rule for each part of sync/, with the parts it must not import added. */
function syncParts(parts) {
  return parts.map(([part, above]) => ({
    ...room(
      part === 'contract'
        ? ['sync/contract/**', 'sync/contract.ts', 'sync/core-error.ts']
        : [`sync/${part}/**`],
      ui,
      electronHost,
      noSandbox,
      never(
        above.flatMap((name) =>
          [`./`, `../`, `../../`].flatMap((up) => [`${up}${name}`, `${up}${name}/**`]),
        ),
        `sync/${part} is below ${above.join(', ')}: it may not import them (shared DESIGN.md, rooms)`,
      ),
    ),
    ignores: ['**/*.test.ts'],
  }));
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'coverage/**', 'test-artifacts/**'] },
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
  room(['sync/**'], ui, electronHost, noSandbox),
  // Tests beside the core start the real sandbox (no mocks of the service): its entry point only.
  room(
    ['sync/**/*.test.ts'],
    ui,
    electronHost,
    never(
      ['**/sandbox/**', '!**/sandbox/server'],
      'tests may start the sandbox through sandbox/server only',
    ),
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
      ['**/admin/**', '**/admin'],
      'the admin interface builds on sandbox/data and sandbox/http, not the reverse',
    ),
  ),
  // The parts of sync/, lowest first: each may import only the parts below it (tests may cross).
  // host: the app session and browser mode's server, above dispatch and scheduler, below cli.
  // export: files from the replica (issue 13), beside queries: it reads db (queries' helpers, the
  // feed's address from pull); dispatch, the host and the CLI call it.
  ...syncParts([
    [
      'contract',
      [
        'api',
        'auth',
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
      'api',
      ['auth', 'db', 'outbox', 'pull', 'queries', 'export', 'dispatch', 'scheduler', 'host', 'cli'],
    ],
    ['auth', ['db', 'outbox', 'pull', 'queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['db', ['auth', 'outbox', 'pull', 'queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['outbox', ['auth', 'pull', 'queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['pull', ['queries', 'export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['queries', ['export', 'dispatch', 'scheduler', 'host', 'cli']],
    ['export', ['api', 'auth', 'outbox', 'dispatch', 'scheduler', 'host', 'cli']],
    ['dispatch', ['scheduler', 'host', 'cli']],
    ['scheduler', ['dispatch', 'host', 'cli']],
    ['host', ['cli']],
  ]),
  // The Electron host may start the sandbox only for the demo: electron/demo.ts (the session's
  // DemoProvider) and electron/browser-main.ts (browser mode's entry, which hands it over).
  {
    ...room(
      ['electron/**'],
      ui,
      never(
        ['**/sandbox/**'],
        'electron/ may use the sandbox only for the demo, in electron/demo.ts and electron/browser-main.ts',
      ),
    ),
    ignores: ['electron/demo.ts', 'electron/browser-main.ts', '**/*.test.ts'],
  },
  room(['electron/demo.ts', 'electron/browser-main.ts', 'electron/**/*.test.ts'], ui),
  room(
    ['renderer/**'],
    electronHost,
    never(['**/sandbox/**'], 'the renderer talks to the core only through the contract'),
    never(['**/sync/**', '!**/sync/contract'], 'the renderer may import only sync/contract'),
    never(['node:*', 'better-sqlite3', 'kysely'], 'the renderer runs in a browser sandbox'),
  ),
);
