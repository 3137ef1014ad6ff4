// GET /oauth/v1/jwks: the public key the ID tokens are signed with (RFC 7517 JWK Set). The
// real service publishes no discovery document, so clients take this address as a setting.
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from './context';

export function registerJwksRoute(app: FastifyInstance, context: AuthContext): void {
  app.get('/oauth/v1/jwks', async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .type('application/jwk-set+json')
      .send(await context.signer.jwks()),
  );
}
