// The room rule (shared DESIGN.md, "Rooms"): every import is resolved to what it names, a path in
// the repository or a package, and checked against its room's constraints, as VS Code's layering
// rule does. Matching the import's text instead (no-restricted-imports) let
// '../../sync/host/session' past a pattern written for '../host'.
import { isBuiltin } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = dirname(fileURLToPath(import.meta.url));
const SOURCE_EXTENSION = /\.(?:[cm]?[jt]sx?|json)$/;

/**
 * What an import names: `{ kind: 'paths', name }` with the repository-relative path without its
 * extension (`sync/db/open`), or `{ kind: 'packages', name }` (`react/jsx-runtime`; built-in
 * modules always as `node:fs`, however they are written).
 */
export function importTarget(specifier, importingFile) {
  const bare = specifier.split('?')[0];
  if (bare.startsWith('.') || bare.startsWith('/')) {
    const path = relative(REPO, resolve(dirname(importingFile), bare))
      .split(sep)
      .join('/');
    return { kind: 'paths', name: path.replace(SOURCE_EXTENSION, '') };
  }
  const builtin = isBuiltin(bare) && !bare.startsWith('node:');
  return { kind: 'packages', name: builtin ? `node:${bare}` : bare };
}

/**
 * Whether one of `entries` covers `name`: an entry covers itself and what lies below it (`react`
 * covers `react/jsx-runtime`, `sync/db` covers `sync/db/open`); one ending in `*` is a prefix.
 */
function covers(entries, name) {
  return (entries ?? []).some((entry) =>
    entry.endsWith('*')
      ? name.startsWith(entry.slice(0, -1))
      : name === entry || name.startsWith(`${entry}/`),
  );
}

/** Whether `constraint` (`{ never, except?, message }` or `{ only, message }`) refuses `target`. */
function refuses(constraint, { kind, name }) {
  if (constraint.only) {
    return constraint.only[kind] !== undefined && !covers(constraint.only[kind], name);
  }
  return covers(constraint.never[kind], name) && !covers(constraint.except?.[kind], name);
}

const targets = {
  type: 'object',
  properties: {
    packages: { type: 'array', items: { type: 'string' } },
    paths: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: false,
};

const imports = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports only what the importing file’s room may use, on resolved paths' },
    // Options: the room's constraints, each `{ never, except?, message }` or `{ only, message }`,
    // where never, except and only list `packages` and repository `paths` (a path covers its folder).
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: { never: targets, except: targets, only: targets, message: { type: 'string' } },
        required: ['message'],
        oneOf: [{ required: ['never'] }, { required: ['only'] }],
        additionalProperties: false,
      },
    },
    messages: { refused: "'{{specifier}}' is {{target}}: {{reason}}" },
  },
  create(context) {
    const check = (literal) => {
      if (typeof literal?.value !== 'string') return;
      const target = importTarget(literal.value, context.filename);
      // One report per import: the first constraint it breaks.
      const broken = context.options.find((constraint) => refuses(constraint, target));
      if (broken) {
        context.report({
          node: literal,
          messageId: 'refused',
          data: { specifier: literal.value, target: target.name, reason: broken.message },
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      'TSImportType > TSLiteralType > Literal': check,
      'TSExternalModuleReference > Literal': check,
      "CallExpression[callee.type='Identifier'][callee.name='require'] > Literal.arguments": check,
    };
  },
};

/** The plugin object for eslint.config.js: `rooms/imports`. */
export default { meta: { name: 'vorort-rooms' }, rules: { imports } };
