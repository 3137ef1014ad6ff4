// Errors of the admin interface: plain JSON `{ "error": "<readable sentence>" }` with a status,
// not JSON:API documents. The admin interface is for tests, which read the sentence when a
// change they asked for was refused.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors';

export class AdminError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AdminError(400, message);
export const noSuchRecord = (message: string) => new AdminError(404, message);
export const conflict = (message: string) => new AdminError(409, message);

/**
 * The interface's rules reused here (e.g. a person's qualification edits) throw ApiError: 404 and
 * 409 keep their status, every other refusal of the input is a 400 as any bad admin body.
 */
function fromApiError(error: ApiError): AdminError {
  const status = error.status === 404 || error.status === 409 ? error.status : 400;
  return new AdminError(status, error.message);
}

/** Our errors with their status, Fastify's own 4xx (bad JSON, media type) as 400s, others 500. */
export function registerAdminErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((thrown: FastifyError | AdminError | ApiError, request, reply) => {
    const error = thrown instanceof ApiError ? fromApiError(thrown) : thrown;
    if (error instanceof AdminError) return reply.code(error.status).send({ error: error.message });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status === 415 ? 415 : 400).send({ error: error.message });
    }
    request.log.error(error);
    return reply.code(500).send({ error: 'The admin interface failed on this request.' });
  });
  scope.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: `The admin interface has no ${request.method} ${request.url.split('?')[0]}.`,
    }),
  );
}
