// Browser mode's HTTP side: the built renderer (dist/renderer/) served from local files only,
// with a strict Content-Security-Policy, and only to requests addressed to this machine by name
// (a Host header of 127.0.0.1 or localhost with this server's port: a page of another site
// whose name was re-pointed at 127.0.0.1, "DNS rebinding", is refused).
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, normalize, resolve, sep } from 'node:path';
import { contentTypeOf, rendererPolicy } from './renderer-files';

/** The hosts this server answers to (its own loopback names with its port). */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The origins whose pages may open the WebSocket: this server's own pages only. */
export function loopbackOrigins(port: number): string[] {
  return loopbackHosts(port).map((host) => `http://${host}`);
}

/**
 * The policy of every answer: scripts, styles, fonts and images from this server only, no inline
 * scripts, no plugins, no frames; the only connection is the WebSocket back to this server.
 */
export function contentSecurityPolicy(port: number): string {
  return rendererPolicy(loopbackHosts(port).map((host) => `ws://${host}`));
}

/** Headers of every answer, files and refusals alike. */
export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}

/** Plain words as the answer (refusals, "not built"). */
export function sendText(
  response: ServerResponse,
  port: number,
  status: number,
  text: string,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...securityHeaders(port),
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...extra,
  });
  response.end(`${text}\n`);
}

/** Whether the request names this server (Host header), not another site re-pointed at it. */
export function isOwnHost(request: IncomingMessage, port: number): boolean {
  const host = request.headers.host?.toLowerCase();
  return host !== undefined && loopbackHosts(port).includes(host);
}

export const NOT_BUILT =
  'The app is not built: run npm run build:renderer (then reload this page).\n' +
  'Die App ist nicht gebaut: npm run build:renderer ausführen (dann die Seite neu laden).';

/** Serves GET/HEAD of the renderer's files under `root`; index.html for `/`. */
export function serveRenderer(
  request: IncomingMessage,
  response: ServerResponse,
  root: string,
  port: number,
): void {
  if (!isOwnHost(request, port)) {
    sendText(response, port, 403, 'Refused: this server answers to 127.0.0.1 only.');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    sendText(response, port, 405, 'Only GET and HEAD.', { Allow: 'GET, HEAD' });
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
  } catch {
    sendText(response, port, 400, 'Bad path.');
    return;
  }
  if (pathname.includes('\0')) {
    sendText(response, port, 400, 'Bad path.');
    return;
  }
  const base = resolve(root);
  const relative = pathname === '/' ? 'index.html' : normalize(pathname).replace(/^[/\\]+/, '');
  const file = resolve(join(base, relative));
  if (file !== base && !file.startsWith(base + sep)) {
    sendText(response, port, 404, 'Not found.');
    return;
  }
  const index = join(base, 'index.html');
  if (!isFile(index)) {
    sendText(response, port, 404, NOT_BUILT);
    return;
  }
  if (!isFile(file)) {
    sendText(response, port, 404, `Not found: ${pathname}`);
    return;
  }
  const isIndex = file === index;
  response.writeHead(200, {
    ...securityHeaders(port),
    'Content-Type': contentTypeOf(file),
    // index.html names the current build's files: never from a cache. Hashed assets may be
    // revalidated (a rebuild replaces them under new names).
    'Cache-Control': isIndex ? 'no-store' : 'no-cache',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
