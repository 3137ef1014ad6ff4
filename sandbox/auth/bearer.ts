// Reads the access token of a request. RFC 6750 says "Bearer <token>"; the real service also
// seems to accept the bare token (one public client sends it that way), so the sandbox does too.

export type PresentedToken =
  { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; token: string };

export function presentedToken(authorizationHeader: string | undefined): PresentedToken {
  const header = authorizationHeader?.trim() ?? '';
  if (header === '' || /^Bearer$/i.test(header)) return { kind: 'missing' };
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer?.[1]) return { kind: 'token', token: bearer[1] };
  // Anything with a space is another scheme (Basic ...) or garbage; a bare token has none.
  return /\s/.test(header) ? { kind: 'malformed' } : { kind: 'token', token: header };
}
