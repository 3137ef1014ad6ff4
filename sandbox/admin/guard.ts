// Who may use the admin interface: only this machine, and only with the admin token. It can
// change any data of the sandbox without OAuth, so it listens on loopback only (startSandbox
// refuses another host), answers 403 to a request from any other address all the same (in case
// a proxy or a port forward brings one in), and needs its own token, which no OAuth access token
// of the interface can stand in for (and which the interface itself does not accept).
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AdminError } from './errors';

/** 127.0.0.0/8, ::1, and the IPv4-mapped form ::ffff:127.x.y.z that dual-stack sockets report. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1' || plain === '0:0:0:0:0:0:0:1';
}

/** A host to listen on that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const plain = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return plain.toLowerCase() === 'localhost' || isLoopbackAddress(plain);
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerGuard(scope: FastifyInstance, token: string): void {
  scope.addHook('onRequest', async (request) => {
    if (!isLoopbackAddress(request.socket.remoteAddress)) {
      throw new AdminError(403, 'The admin interface answers requests from this machine only.');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !sameToken(match[1]!, token)) {
      throw new AdminError(
        401,
        'The admin interface needs its own token (Authorization: Bearer <admin token>); access tokens of the interface do not work here.',
      );
    }
  });
}
