// What both hosts serve the built renderer (dist/renderer/) with, in one place: the page's
// Content-Security-Policy and the content type of each file. Electron serves it over app://,
// browser mode over loopback HTTP; only the allowed connections differ.

/**
 * Everything from the app itself, no inline scripts, no plugins, frames or workers; connections
 * to the app itself and to `connectSources` (browser mode's WebSocket) only.
 */
export function rendererPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** The content type of a file of the built renderer, by its extension. */
export function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  const extension = dot > file.lastIndexOf('/') ? file.slice(dot).toLowerCase() : '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
