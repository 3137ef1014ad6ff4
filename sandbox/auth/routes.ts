// The OAuth endpoints as one encapsulated Fastify plugin: the form-body parser and the error
// handler registered here apply to these routes only, never to the API's JSON:API routes.
import formBody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import { registerAuthorizeRoutes, sendErrorPage } from './authorize-route';
import type { AuthContext } from './context';
import { registerJwksRoute } from './jwks-route';
import { registerTokenRoute, sendTokenError } from './token-route';
import { registerUserInfoRoute } from './userinfo-route';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * Errors Fastify raises before a handler runs (unparsable or oversized body, unsupported
 * media type) answered in the endpoint's own language: OAuth JSON for the token endpoint,
 * the error page for the browser-facing authorize endpoint.
 */
function setOAuthErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const clientError =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500;
    if (!clientError) request.log.error(error);
    const description = clientError ? error.message : 'Internal error of the sandbox';
    if (request.routeOptions.url === '/oauth/v1/token') {
      return sendTokenError(reply, clientError ? 'invalid_request' : 'server_error', description);
    }
    if (request.routeOptions.url === '/oauth/v1/authorize' && clientError) {
      return sendErrorPage(reply, description);
    }
    return reply
      .status(clientError ? (error.statusCode ?? 400) : 500)
      .type('application/json')
      .send({
        error: clientError ? 'invalid_request' : 'server_error',
        error_description: description,
      });
  });
}

export function oauthRoutes(context: AuthContext): FastifyPluginAsync {
  return async (app) => {
    // The server may already parse forms at its root; a second parser would be an error.
    if (!app.hasContentTypeParser(FORM_CONTENT_TYPE)) await app.register(formBody);
    setOAuthErrorHandler(app);
    registerAuthorizeRoutes(app, context);
    registerTokenRoute(app, context);
    registerUserInfoRoute(app, context);
    registerJwksRoute(app, context);
  };
}
