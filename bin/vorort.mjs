#!/usr/bin/env node
// The CLI runs the TypeScript sources directly (tsx), so `npx vorort` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('./vorort.ts');
