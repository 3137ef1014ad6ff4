// The renderer's build (renderer/ → dist/renderer/): relative asset paths, so the same build is
// served by browser mode's HTTP server and loaded by Electron from local files; no inline
// scripts or styles (the CSP of both hosts forbids them).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: here('./dist/renderer'),
    emptyOutDir: true,
    // Inline assets would be data: URLs, which the CSP refuses for scripts; keep them files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: true,
    // One bundle for the shell (React, i18next, zod's contract): about 420 kB, 130 kB gzipped.
    chunkSizeWarningLimit: 800,
  },
  server: { host: '127.0.0.1', strictPort: false },
});
