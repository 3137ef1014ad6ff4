// Lint rules, including the allowed imports between rooms (see shared DESIGN.md, "Rooms").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const never = (group, message) => ({ group, message });
const ui = never(
  ['react', 'react-dom', 'react/*', 'zustand', '**/renderer/**'],
  'the UI lives in renderer/ only',
);
const electronHost = never(['electron', '**/electron/**'], 'only electron/ may use Electron');

/** One restricted-imports rule per room: what each folder must never import. */
function room(files, ...groups) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: groups }] } };
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
  room(
    ['sync/**'],
    ui,
    electronHost,
    never(['**/sandbox/**'], 'sync/ must not depend on the sandbox'),
  ),
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
  room(
    ['sandbox/**'],
    ui,
    electronHost,
    never(['**/sync/**'], 'the sandbox must not share the client’s code (or its bugs)'),
  ),
  room(['electron/**'], ui),
  room(
    ['renderer/**'],
    electronHost,
    never(['**/sandbox/**'], 'the renderer talks to the core only through the contract'),
    never(['**/sync/**', '!**/sync/contract'], 'the renderer may import only sync/contract'),
    never(['node:*', 'better-sqlite3', 'kysely'], 'the renderer runs in a browser sandbox'),
  ),
);
