#!/usr/bin/env node
// Runs one TypeScript entry file (benchmarks, scripts) through tsx: `node bin/run-ts.mjs FILE [args]`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node bin/run-ts.mjs FILE [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
register();
await import(pathToFileURL(resolve(entry)).href);
