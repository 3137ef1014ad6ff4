// The interface as one Fastify plugin, mounted under the prefix (e.g. /core/v1). Its scopes:
//   interface   body parsing (JSON:API and plain JSON only), JSON:API errors and 404s, the rate
//               limit and injected faults: everything under the prefix
//   └ feed      the private iCal feed: no OAuth, the secret is in its path
//   └ protected the bearer token (401) and its scope for the operation (403) are checked
//               before any route runs
//     └ courses the course module: 423 when the organisation has not licensed it
// OAuth lives outside this plugin (sandbox/auth), so none of this applies to /oauth/v1.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/types';
import { registerBenachrichtigungenRoutes } from './benachrichtigungen';
import { registerClientRoutes } from './clients';
import type { ApiContext } from './context';
import { setPrincipal } from './context';
import { requireScopes } from './permissions';
import { registerCourseRoutes } from './courses';
import { registerCustomfieldRoutes } from './customfields';
import { ApiError, errorDocument, moduleLocked } from './errors';
import { FaultPlan, registerFaults, type FaultRates } from './faults';
import { registerFeedRoutes } from './feed';
import { registerFormulareRoutes } from './formulare';
import { registerHelferstundenRoutes } from './helferstunden';
import { registerKalenderRoutes } from './kalender';
import { registerOrganisationRoutes } from './organisation';
import { registerParticipationRoutes } from './participations';
import { registerPersonalRoutes } from './personal';
import { registerRateLimit, SlidingWindowLimiter, type RateLimitSpec } from './rate-limit';
import { registerRequestLog, type RequestLog } from './request-log';
import { sendBody } from './respond';
import { registerSteuersaetzeRoutes } from './steuersaetze';
import { registerUvtRoutes } from './uvts';

export interface InterfaceOptions {
  context: ApiContext;
  auth: AuthService;
  faults?: { rates: FaultRates; seed: number; slowMs: number };
  rateLimit?: RateLimitSpec;
  /** Records every request to the interface (the handle's `requests`). */
  requestLog?: RequestLog;
}

const JSON_TYPES = ['application/json', 'application/vnd.api+json'];

/** Only a charset may qualify the media type (JSON:API forbids other parameters: 415). */
function checkMediaTypeParameters(contentType: string): void {
  const parameters = contentType.split(';').slice(1);
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim().toLowerCase());
    if (name !== 'charset' || value.replaceAll('"', '') !== 'utf-8') {
      throw new ApiError(415, [
        {
          code: 'unsupported_media_type',
          detail: `The media type parameter "${parameter.trim()}" is not supported.`,
        },
      ]);
    }
  }
}

function registerBodyParsing(scope: FastifyInstance): void {
  // Form and text bodies are never interface input: without a parser Fastify answers 415.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    JSON_TYPES,
    { parseAs: 'string' },
    async (request: FastifyRequest, body: string) => {
      checkMediaTypeParameters(request.headers['content-type'] ?? '');
      if (body.trim() === '') return undefined;
      try {
        return JSON.parse(body) as unknown;
      } catch (error) {
        throw new ApiError(400, [
          {
            code: 'malformed_json',
            detail: `The body is not valid JSON: ${(error as Error).message}`,
            source: { pointer: '' },
          },
        ]);
      }
    },
  );
}

/** Fastify's own errors (no parser, body too large, ...) and unexpected ones, as JSON:API errors. */
function toApiError(error: FastifyError | ApiError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type = request.headers['content-type'] ?? '(none)';
    return new ApiError(415, [
      {
        code: 'unsupported_media_type',
        detail: `Bodies must be application/vnd.api+json or application/json, not ${type}.`,
      },
    ]);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new ApiError(status, [{ code: 'bad_request', detail: error.message }]);
  request.log.error(error);
  return new ApiError(500, [
    { code: 'internal_error', detail: 'The sandbox failed on this request; see its log.' },
  ]);
}

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.headers(error.headers);
  return sendBody(reply, error.status, JSON.stringify(errorDocument(error.errors)));
}

/** JSON:API 404 for paths no operation serves; also for the root when the interface has a prefix. */
export function registerNotFound(scope: FastifyInstance): void {
  scope.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new ApiError(404, [
        {
          code: 'no_such_operation',
          detail: `No operation ${request.method} ${request.url.split('?')[0]}.`,
        },
      ]),
    ),
  );
}

function registerErrorHandling(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | ApiError, request, reply) =>
    sendError(reply, toApiError(error, request)),
  );
  registerNotFound(scope);
}

/**
 * The Date header from the sandbox's clock, not the system's, so a client's clock-skew check
 * sees the service's time when a test has moved it (Node sets none when one is present).
 */
function registerDateHeader(scope: FastifyInstance, context: ApiContext): void {
  scope.addHook('onSend', async (_request, reply) => {
    reply.header('date', new Date(context.clock()).toUTCString());
  });
}

const AUTH_FAILURES = {
  missing: {
    code: 'token_missing',
    detail: 'No access token was presented (Authorization: Bearer <token>).',
  },
  invalid: { code: 'token_invalid', detail: 'The access token is not valid.' },
  expired: { code: 'token_expired', detail: 'The access token has expired; refresh it.' },
} as const;

function registerAuthentication(scope: FastifyInstance, auth: AuthService): void {
  scope.addHook('onRequest', async (request) => {
    const result = auth.authenticate(request.headers.authorization);
    if (result.ok) {
      setPrincipal(request, result.principal);
      const route = request.routeOptions.url;
      if (route !== undefined)
        requireScopes(result.principal, request.method, route.slice(scope.prefix.length) || '/');
      return;
    }
    const failure = AUTH_FAILURES[result.reason];
    const challenge =
      result.reason === 'missing'
        ? 'Bearer realm="vorort-sandbox"'
        : `Bearer realm="vorort-sandbox", error="invalid_token", error_description="${failure.detail}"`;
    throw new ApiError(401, [failure], { 'www-authenticate': challenge });
  });
}

function registerCourseModule(scope: FastifyInstance, context: ApiContext): void {
  if (!context.coursesLicensed) {
    scope.addHook('onRequest', async () => {
      throw moduleLocked('The organisation has not licensed the course module.');
    });
  }
  registerCourseRoutes(scope, context);
  registerParticipationRoutes(scope, context);
  registerCustomfieldRoutes(scope, context);
  registerClientRoutes(scope, context);
  registerUvtRoutes(scope, context);
}

/** The interface plugin; register it with `{ prefix }`. */
export function interfacePlugin(options: InterfaceOptions) {
  const { context, auth } = options;
  return async (scope: FastifyInstance): Promise<void> => {
    registerBodyParsing(scope);
    registerErrorHandling(scope);
    registerDateHeader(scope, context);
    const { requestLog } = options;
    if (requestLog) registerRequestLog(scope, requestLog);
    if (options.rateLimit)
      registerRateLimit(scope, new SlidingWindowLimiter(options.rateLimit, context.clock));
    if (options.faults) {
      registerFaults(
        scope,
        new FaultPlan(options.faults.rates, options.faults.seed),
        options.faults.slowMs,
        requestLog ? (request, kind) => requestLog.fault(request, kind) : undefined,
      );
    }
    await scope.register(async (feed) => registerFeedRoutes(feed, context));
    await scope.register(async (protectedScope) => {
      registerAuthentication(protectedScope, auth);
      registerPersonalRoutes(protectedScope, context);
      registerOrganisationRoutes(protectedScope, context);
      registerKalenderRoutes(protectedScope, context);
      registerHelferstundenRoutes(protectedScope, context);
      registerBenachrichtigungenRoutes(protectedScope, context);
      registerFormulareRoutes(protectedScope, context);
      registerSteuersaetzeRoutes(protectedScope, context);
      await protectedScope.register(async (courseScope) =>
        registerCourseModule(courseScope, context),
      );
    });
  };
}
