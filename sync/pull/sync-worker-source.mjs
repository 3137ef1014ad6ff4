// Worker entry when running from the TypeScript sources (CLI, tests, bench): registers tsx in
// this thread, then loads the worker. A packaged app passes its built worker file instead.
import { register } from 'tsx/esm/api';

register();
await import('./sync-worker.ts');
