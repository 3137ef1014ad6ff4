#!/usr/bin/env node
// `npm start`: until the desktop app exists, run the sandbox service with demo data, and say so.
import { register } from 'tsx/esm/api';

process.stderr.write(
  'Vorort: the desktop app is not built yet, so `npm start` runs the sandbox service with demo data.\n' +
    'Sync it into a replica with `npx vorort sync --server <base URL> --token <token> --db replica.sqlite`.\n\n',
);
process.argv = [
  process.argv[0],
  process.argv[1],
  'sandbox',
  '--scale',
  'small',
  '--seed',
  '1',
  '--port',
  '8787',
  ...process.argv.slice(2),
];
register();
await import('./vorort.ts');
