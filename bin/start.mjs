#!/usr/bin/env node
// `npm start`: until the desktop app exists, run the sandbox service with demo data, and say so.
// Port 8787 unless taken (another sandbox still running, say): then the next free one of
// 8788–8797, else any free port; it says which. `--port` (npm start -- --port 9000) is used as given.
import { createServer } from 'node:net';
import { register } from 'tsx/esm/api';

const FIRST_PORT = 8787;
const TRIES = 11;

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index === -1) return undefined;
  return args[index].includes('=') ? args[index].split('=')[1] : args[index + 1];
};

/** Whether the port can be listened on at this host now (it may be taken a moment later). */
function isFree(port, host) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function choosePort(host) {
  for (let port = FIRST_PORT; port < FIRST_PORT + TRIES; port += 1) {
    if (await isFree(port, host)) return port;
  }
  return 0;
}

process.stderr.write(
  'Vorort: the desktop app is not built yet, so `npm start` runs the sandbox service with demo data.\n' +
    'Sync it into a replica with `npx vorort sync --server <base URL> --token <token> --db replica.sqlite`.\n',
);
const portArgs = [];
if (option('--port') === undefined) {
  const port = await choosePort(option('--host') ?? '127.0.0.1');
  if (port !== FIRST_PORT)
    process.stderr.write(
      `Port ${FIRST_PORT} is taken, so the sandbox uses ${port === 0 ? 'a free port' : `port ${port}`}: see the URLs below.\n`,
    );
  portArgs.push('--port', String(port));
}
process.stderr.write('\n');
process.argv = [
  process.argv[0],
  process.argv[1],
  'sandbox',
  '--scale',
  'small',
  '--seed',
  '1',
  ...portArgs,
  ...args,
];
register();
await import('./vorort.ts');
