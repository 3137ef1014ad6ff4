// better-sqlite3 for the Electron app's ABI (one install serves Node and Electron; see docs/app.md,
// "One install, two ABIs"): the build `npm run build:native-electron` made for the installed
// Electron is loaded for the replica (openReplica's nativeBinding, also in the sync's worker
// threads through VORORT_SQLITE_BINDING) and, by answering better-sqlite3's own lookup of its
// compiled file (the `bindings` package) in this thread, for the demo's sandbox, which opens its
// database without the option. Plain Node: tested in a child process with Node's own build.
import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SQLITE_BINDING_ENV } from '../sync/db/open';

/** Where `npm run build:native-electron` puts better-sqlite3's build for the installed Electron. */
export function electronBindingPath(root: string): string {
  return join(root, 'node_modules', '.cache', 'vorort-electron', 'better_sqlite3.node');
}

/**
 * Makes every better-sqlite3 database of this process load `binding` (default: the Electron
 * build under `root`); throws, saying what to run (or, installed, to reinstall), when it is not
 * there: the message is what "Vorort konnte nicht starten" shows.
 */
export function useSqliteBuild(
  root: string,
  binding: string = electronBindingPath(root),
  options: { packaged?: boolean } = {},
): void {
  if (!existsSync(binding))
    throw new Error(
      options.packaged
        ? `The installation is incomplete (${binding} is missing): please install Vorort again. ` +
            `Die Installation ist unvollständig: bitte Vorort neu installieren.`
        : `better-sqlite3 is not built for Electron (${binding} is missing). ` +
            `Run in ${root}: npm run build:native-electron, then npm start. ` +
            `Die Datenbank-Bibliothek ist nicht für Electron gebaut: in ${root} ` +
            `npm run build:native-electron ausführen, dann npm start.`,
    );
  process.env[SQLITE_BINDING_ENV] = binding;
  const require = createRequire(join(root, 'package.json'));
  const addon: unknown = require(binding);
  const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
  const bindingsId = require.resolve('bindings', { paths: [sqliteDir] });
  const stand = new Module(bindingsId);
  stand.filename = bindingsId;
  stand.loaded = true;
  stand.exports = () => addon;
  require.cache[bindingsId] = stand;
}
