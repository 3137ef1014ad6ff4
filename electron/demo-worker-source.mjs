// The demo sandbox's worker entry when running from the TypeScript sources (browser mode, tests,
// bench): registers the TypeScript loader in this thread, then loads the worker. The Electron
// bundle runs its built demo-worker.mjs instead.
import { register } from 'tsx/esm/api';

register();
await import('./demo-worker.ts');
