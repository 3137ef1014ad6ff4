// GET /oauth/v1/userinfo: the logged-in user's claims, as plain application/json (seed §1).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthContext } from './context';
import { buildUserInfo } from './userinfo';

/** RFC 6750 §3: no error code when the request carried no token at all. */
function sendChallenge(reply: FastifyReply, description: string | undefined): FastifyReply {
  const challenge =
    description === undefined
      ? 'Bearer realm="vorort-sandbox"'
      : `Bearer realm="vorort-sandbox", error="invalid_token", error_description="${description}"`;
  return reply
    .status(401)
    .header('www-authenticate', challenge)
    .type('application/json')
    .send({
      error: 'invalid_token',
      error_description: description ?? 'An access token is required',
    });
}

const DESCRIPTIONS = {
  invalid: 'The access token is invalid',
  expired: 'The access token expired',
} as const;

export function registerUserInfoRoute(app: FastifyInstance, context: AuthContext): void {
  app.get('/oauth/v1/userinfo', (request, reply) => {
    const result = context.authenticate(request.headers.authorization);
    if (!result.ok) {
      return sendChallenge(
        reply,
        result.reason === 'missing' ? undefined : DESCRIPTIONS[result.reason],
      );
    }
    // OIDC Core §5.3: the user-info endpoint serves tokens granted the openid scope.
    if (!result.principal.scopes.has('openid')) {
      const description = 'The access token lacks the scope openid';
      return reply
        .status(403)
        .header(
          'www-authenticate',
          `Bearer realm="vorort-sandbox", error="insufficient_scope", error_description="${description}", scope="openid"`,
        )
        .type('application/json')
        .send({ error: 'insufficient_scope', error_description: description });
    }
    const userInfo = buildUserInfo(context.store, result.principal.userId);
    if (!userInfo) return sendChallenge(reply, 'The user of this token no longer exists');
    return reply.header('cache-control', 'no-store').type('application/json').send(userInfo);
  });
}
