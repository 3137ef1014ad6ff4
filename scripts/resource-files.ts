// How far one resource is spread (issue 20, "What it must show"): `npm run resource-files -- TYPE
// [TABLE]` lists the non-test source files of sync/ and renderer/ that name the resource type or
// its table as an identifier or inside a string (comments and i18n JSON do not count), and prints
// their number. The migrations are history (a replica has applied them, they are never edited):
// the ones that name the resource are listed, but counted as one, the migration a new resource
// adds as one new numbered file. Then two paths, declared by hand and checked here: the files an
// answer of `GET /helferstunden` passes from HTTP to its SQLite row, and those a contract call
// passes from the dispatcher to its SQL. Each file must exist, do what it is said to do (the
// symbol is in it), and import another file of the path or be imported by one (an index that
// re-exports counts as the files it re-exports), so the list cannot drift from the code silently.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.tsx?$/;
const TEST = /(\.test\.tsx?$)|(\/test-support\/)/;

/** The non-test TypeScript files below `dir` (repository-relative). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => `${dir}/${name.split('\\').join('/')}`)
    .filter((file) => SOURCE.test(file) && !TEST.test(file))
    .sort();
}

function parse(file: string): ts.SourceFile {
  const text = readFileSync(join(REPO, file), 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
}

/** Whether the file names one of `names`: an identifier equal to it, or a string with it as a word. */
function names(file: string, words: readonly string[]): boolean {
  const asWord = words.map((word) => new RegExp(`(?<![A-Za-z0-9_$])${word}(?![A-Za-z0-9_$])`));
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      found = words.includes(node.text);
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      found = asWord.some((word) => word.test(node.text));
    }
    if (!found) ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

/** The repository files a file imports or re-exports from (relative imports only). */
function importsOf(file: string): string[] {
  const targets: string[] = [];
  for (const statement of parse(file).statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (!specifier?.startsWith('.')) continue;
    const base = relative(REPO, resolve(dirname(join(REPO, file)), specifier));
    const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) =>
      existsSync(join(REPO, candidate)),
    );
    if (target) targets.push(target.split('\\').join('/'));
  }
  return targets;
}

/** What a file imports, an index file's re-exports followed to the files they name. */
function reaches(file: string): Set<string> {
  const seen = new Set<string>();
  const walk = (from: string) => {
    for (const target of importsOf(from)) {
      if (seen.has(target)) continue;
      seen.add(target);
      if (target.endsWith('/index.ts')) walk(target);
    }
  };
  walk(file);
  return seen;
}

interface Step {
  file: string;
  /** A name in the file through which the data passes. */
  symbol: string;
  does: string;
}

/** Checks a declared path; returns the problems (none when it holds). */
function checkPath(steps: readonly Step[]): string[] {
  const problems: string[] = [];
  steps.forEach((step) => {
    if (!existsSync(join(REPO, step.file))) {
      problems.push(`${step.file} does not exist`);
      return;
    }
    if (!readFileSync(join(REPO, step.file), 'utf8').includes(step.symbol)) {
      problems.push(`${step.file} has no ${step.symbol}`);
    }
    const others = steps.filter((other) => other.file !== step.file);
    const linked = others.some(
      (other) => reaches(step.file).has(other.file) || reaches(other.file).has(step.file),
    );
    if (others.length > 0 && !linked)
      problems.push(`${step.file} imports no other file of the path`);
  });
  return problems;
}

/** An answer of GET /helferstunden, from the HTTP body to the SQLite row. */
const HOURS_ANSWER_TO_ROW: readonly Step[] = [
  { file: 'sync/api/transport.ts', symbol: 'fetch', does: 'the HTTP request and its body' },
  {
    file: 'sync/api/core.ts',
    symbol: 'async function* listPages',
    does: 'pages of the list, documents read',
  },
  {
    file: 'sync/api/document.ts',
    symbol: 'readResources',
    does: 'envelope, each resource checked',
  },
  {
    file: 'sync/api/endpoints/index.ts',
    symbol: 'resourceSchemas',
    does: 'the schema by type (included)',
  },
  {
    file: 'sync/api/endpoints/hours.ts',
    symbol: 'listHelferstunden',
    does: 'the list call, the attributes read',
  },
  { file: 'sync/api/schemas/common.ts', symbol: 'resourceSchema', does: 'the tolerant readers' },
  { file: 'sync/pull/collections/hours.ts', symbol: 'applyAnswer', does: 'the answer applied' },
  {
    file: 'sync/pull/context.ts',
    symbol: 'applyInChunks',
    does: 'in chunks, one transaction each',
  },
  ...rowSteps(),
  { file: 'sync/db/writer.ts', symbol: 'upsert', does: 'in short transactions' },
  { file: 'sync/db/upsert.ts', symbol: 'upsertRows', does: 'the SQL that writes the row' },
];

/** The row mapper of helferstunden: the resource module and its column kit where they exist. */
function rowSteps(): Step[] {
  if (!existsSync(join(REPO, 'sync/resources/helferstunden.ts'))) {
    return [{ file: 'sync/db/rows.ts', symbol: 'helferstundenRow', does: 'resource to row' }];
  }
  return [
    {
      file: 'sync/resources/helferstunden.ts',
      symbol: 'rowOf<HelferstundenTable>',
      does: 'its column list',
    },
    { file: 'sync/resources/columns.ts', symbol: 'readRow', does: 'resource to row' },
  ];
}

/** A contract call, `participations.list`, from the dispatcher to its SQL. */
const CALL_TO_SQL: readonly Step[] = [
  { file: 'sync/dispatch/index.ts', symbol: 'queryHandlers', does: 'arguments checked, handled' },
  { file: 'sync/queries/index.ts', symbol: "'participations.list'", does: 'the handler' },
  { file: 'sync/queries/courses.ts', symbol: "selectFrom('participations", does: 'the SQL' },
];

function printPath(title: string, steps: readonly Step[]): boolean {
  const files = new Set(steps.map((step) => step.file));
  console.log(`\n${title}: ${files.size} files`);
  for (const step of steps) console.log(`  ${step.file}  (${step.symbol}: ${step.does})`);
  const problems = checkPath(steps);
  for (const problem of problems) console.log(`  ! ${problem}`);
  return problems.length === 0;
}

async function tableOf(type: string): Promise<string> {
  const registry = join(REPO, 'sync/resources/index.ts');
  if (!existsSync(registry)) return type;
  const { resourceOfType } = (await import(registry)) as {
    resourceOfType: (type: string) => { table: string } | undefined;
  };
  return resourceOfType(type)?.table ?? type;
}

const [type, tableArgument] = process.argv.slice(2);
if (!type) {
  console.error('usage: npm run resource-files -- TYPE [TABLE]   (e.g. kalender)');
  process.exit(2);
}
const table = tableArgument ?? (await tableOf(type));
const words = [...new Set([type, table])];
const MIGRATIONS = 'sync/db/migrations/';
const naming = [...sourceFiles('sync'), ...sourceFiles('renderer')].filter((file) =>
  names(file, words),
);
const migrations = naming.filter((file) => file.startsWith(MIGRATIONS));
const counted = naming.length - migrations.length + (migrations.length > 0 ? 1 : 0);
console.log(`Files naming ${words.join(' / ')} (non-test sources of sync/ and renderer/):`);
for (const file of naming) console.log(`  ${file}`);
console.log(
  migrations.length > 1
    ? `${counted} files (the ${migrations.length} migrations counted as one: history, a new resource adds one)`
    : `${counted} files`,
);
// The core's part, what every resource needs whether or not a screen shows it.
const screens = naming.filter((file) => file.startsWith('renderer/screens/')).length;
if (screens > 0) console.log(`${counted - screens} of them without its screens (renderer/screens)`);
const pathsHold =
  printPath('GET /helferstunden, HTTP answer to SQLite row', HOURS_ANSWER_TO_ROW) &&
  printPath('participations.list, dispatcher to SQL', CALL_TO_SQL);
if (!pathsHold) process.exitCode = 1;
