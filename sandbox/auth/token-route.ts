// POST /oauth/v1/token: the authorization_code and refresh_token grants (RFC 6749 §4.1.3, §6),
// with PKCE verification (RFC 7636 §4.6). Answers and errors are RFC 6749 §5 JSON.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountRole } from './accounts';
import type { RegisteredClient } from './clients';
import type { AuthContext } from './context';
import type { Grant } from './grants';
import { readParameters, type Parameters } from './params';
import { isWellFormedVerifier, verifierMatches } from './pkce';
import { splitScope, unknownScopes } from './scopes';

export type TokenErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error';

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  /** Only when the grant has the `openid` scope (OIDC Core §3.1.3.3, §12.2). */
  id_token?: string;
}

class TokenError extends Error {
  constructor(
    readonly code: TokenErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}

/** RFC 6749 §5.1: token answers must never be cached. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** 401 with a challenge for a failed client authentication (RFC 6749 §5.2), 400 for the rest. */
export function sendTokenError(
  reply: FastifyReply,
  code: TokenErrorCode,
  description: string,
): FastifyReply {
  const status = code === 'invalid_client' ? 401 : code === 'server_error' ? 500 : 400;
  if (code === 'invalid_client') reply.header('www-authenticate', 'Basic realm="vorort-sandbox"');
  return noStore(reply)
    .status(status)
    .type('application/json')
    .send({ error: code, error_description: description });
}

function isFormBody(request: FastifyRequest): boolean {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded';
}

function required(parameters: Parameters, name: string): string {
  const value = parameters.get(name);
  if (value === undefined) throw new TokenError('invalid_request', `${name} is missing`);
  return value;
}

/** Scopes the sandbox does not know are refused wherever a scope parameter is sent (RFC 6749 §5.2). */
function requireKnownScopes(requested: string | undefined): void {
  if (requested === undefined) return;
  const unknown = unknownScopes(splitScope(requested));
  if (unknown.length > 0)
    throw new TokenError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
}

/** A refresh may ask for less than the grant holds, never more (RFC 6749 §6). */
function narrowedScope(granted: string, requested: string | undefined): string {
  if (requested === undefined) return granted;
  requireKnownScopes(requested);
  const grantedScopes = new Set(splitScope(granted));
  const outside = splitScope(requested).filter((scope) => !grantedScopes.has(scope));
  if (outside.length > 0)
    throw new TokenError('invalid_scope', `Not granted: ${outside.join(' ')}`);
  return splitScope(requested).join(' ');
}

export function registerTokenRoute(app: FastifyInstance, context: AuthContext): void {
  const { store, grants, accessTokenLifetimeSeconds, signer } = context;

  function requireAccount(userId: string): void {
    if (accountRole(store, userId) === undefined) {
      throw new TokenError('invalid_grant', 'The account of this grant no longer exists');
    }
  }

  async function accessTokenFor(
    request: FastifyRequest,
    grant: Grant,
    scope: string,
    refreshToken: string | undefined,
    nonce: string | undefined,
  ): Promise<TokenAnswer> {
    const answer: TokenAnswer = {
      access_token: grants.issueAccessToken(grant.userId, grant, scope),
      token_type: 'Bearer',
      expires_in: accessTokenLifetimeSeconds,
      ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
      scope,
    };
    if (splitScope(scope).includes('openid')) {
      answer.id_token = await signer.sign({
        issuer: context.issuer(`${request.protocol}://${request.host}`),
        subject: grant.userId,
        audience: grant.clientId,
        lifetimeSeconds: accessTokenLifetimeSeconds,
        nonce,
        authTime: grant.authTime,
        nowSeconds: Math.floor(context.clock() / 1000),
      });
    }
    return answer;
  }

  function exchangeCode(
    request: FastifyRequest,
    client: RegisteredClient,
    parameters: Parameters,
  ): Promise<TokenAnswer> {
    const redemption = grants.redeemCode(required(parameters, 'code'));
    if (!redemption.ok) {
      const why = { unknown: 'is unknown', expired: 'has expired', reused: 'was already used' }[
        redemption.reason
      ];
      throw new TokenError('invalid_grant', `The authorization code ${why}`);
    }
    const { code } = redemption;
    if (code.clientId !== client.id) {
      throw new TokenError('invalid_grant', 'The authorization code was issued to another client');
    }
    if (parameters.get('redirect_uri') !== code.redirectUri) {
      throw new TokenError(
        'invalid_grant',
        'redirect_uri differs from the one of the authorization request',
      );
    }
    const verifier = parameters.get('code_verifier');
    if (code.codeChallenge === undefined) {
      // RFC 9700 §2.1.1: a verifier without a challenge hints at an injected code.
      if (verifier !== undefined) {
        throw new TokenError(
          'invalid_grant',
          'code_verifier sent, but the authorization request had no code_challenge',
        );
      }
    } else {
      if (verifier === undefined)
        throw new TokenError('invalid_request', 'code_verifier is missing');
      if (!isWellFormedVerifier(verifier)) {
        throw new TokenError(
          'invalid_request',
          'code_verifier must be 43 to 128 unreserved characters',
        );
      }
      if (!verifierMatches(verifier, code.codeChallenge)) {
        throw new TokenError('invalid_grant', 'code_verifier does not match the code_challenge');
      }
    }
    // The code request carries no scope (RFC 6749 §4.1.3); one that is sent must still be known.
    requireKnownScopes(parameters.get('scope'));
    requireAccount(code.userId);
    const grant = grants.createGrant(code.userId, client.id, code.scope);
    redemption.bind(grant);
    return accessTokenFor(request, grant, grant.scope, grants.issueRefreshToken(grant), code.nonce);
  }

  function refresh(
    request: FastifyRequest,
    client: RegisteredClient,
    parameters: Parameters,
  ): Promise<TokenAnswer> {
    const refreshToken = required(parameters, 'refresh_token');
    const grant = grants.findRefreshToken(refreshToken);
    if (!grant)
      throw new TokenError('invalid_grant', 'The refresh token is unknown or no longer valid');
    if (grant.clientId !== client.id) {
      throw new TokenError('invalid_grant', 'The refresh token was issued to another client');
    }
    requireAccount(grant.userId);
    const scope = narrowedScope(grant.scope, parameters.get('scope'));
    const next = grants.refresh(refreshToken, grant);
    // OIDC Core §12.2: the ID token of a refresh carries no nonce.
    return accessTokenFor(
      request,
      grant,
      scope,
      next.rotated ? next.refreshToken : undefined,
      undefined,
    );
  }

  app.post('/oauth/v1/token', async (request, reply) => {
    if (!isFormBody(request)) {
      return sendTokenError(
        reply,
        'invalid_request',
        'Send the parameters as application/x-www-form-urlencoded',
      );
    }
    const parameters = readParameters(request.body);
    if (parameters.repeated.length > 0) {
      return sendTokenError(
        reply,
        'invalid_request',
        `Parameters sent more than once: ${parameters.repeated.join(', ')}`,
      );
    }
    const authentication = context.clients.authenticate(parameters, request.headers.authorization);
    if (!authentication.ok)
      return sendTokenError(reply, authentication.error, authentication.description);
    try {
      const grantType = required(parameters, 'grant_type');
      let answer: TokenAnswer;
      if (grantType === 'authorization_code')
        answer = await exchangeCode(request, authentication.client, parameters);
      else if (grantType === 'refresh_token')
        answer = await refresh(request, authentication.client, parameters);
      else
        throw new TokenError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
      return noStore(reply).type('application/json').send(answer);
    } catch (error) {
      if (error instanceof TokenError) return sendTokenError(reply, error.code, error.description);
      throw error;
    }
  });
}
