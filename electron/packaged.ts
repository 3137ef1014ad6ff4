// Where the installed app's files are (build/electron-builder.yml lays them out): the app in
// resources/app.asar; what cannot run from inside an ASAR beside it, in app.asar.unpacked (the
// workers, better-sqlite3's JavaScript); better-sqlite3's build for Electron in resources/native/.
// Run from the sources (`electron .`) nothing here changes a path. Plain Node: tested in
// electron/packaged.test.ts.
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** better-sqlite3's build for Electron in the installed app (extraResources). */
export function packagedBindingPath(resourcesPath: string): string {
  return join(resourcesPath, 'native', 'better_sqlite3.node');
}

/**
 * A file of the app as electron-builder unpacked it: a path inside `app.asar` becomes the same
 * path inside `app.asar.unpacked`. A worker thread is started from there: its ES module and the
 * package it imports are outside the archive (asarUnpack), so nothing depends on how Electron
 * reads an ASAR in a worker. Anything else is answered unchanged.
 */
export function outsideAsar(url: URL): URL {
  if (url.protocol !== 'file:') return url;
  const path = fileURLToPath(url);
  const marker = `${sep}app.asar${sep}`;
  const at = path.indexOf(marker);
  if (at < 0) return url;
  return pathToFileURL(
    `${path.slice(0, at)}${sep}app.asar.unpacked${sep}${path.slice(at + marker.length)}`,
  );
}
