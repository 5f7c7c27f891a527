import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '@doppel/core/db/unavailable';
import { ApiError } from '@doppel/core/errors';
import { notJson } from './json-body';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * The error of the contract that answers a fastify-level failure (body parsing, media type,
 * size), or null for anything unexpected.
 */
function fromFrameworkError(error: FastifyError, bodyLimitBytes: number): ApiError | null {
  switch (error.statusCode) {
    case 400:
      return new ApiError(
        'validation_error',
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is empty; send a JSON document.'
          : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
            ? 'The request body is not valid JSON.'
            : 'The request is malformed.',
      );
    case 413:
      return new ApiError('payload_too_large', `The request body exceeds ${bodyLimitBytes} bytes.`);
    case 415:
      return notJson();
    default:
      return null;
  }
}

/**
 * Fastify's `frameworkErrors` hook: the router's own failures, which never reach the error
 * handler. A path that is not validly percent-encoded is a malformed request; a parameter over
 * the router's length cap (set far above any valid id, see buildApp) is a malformed id.
 */
export function answerRouterErrorsWithEnvelope(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('validation_error', 'A path parameter is too long.')
      : error.code === 'FST_ERR_BAD_URL'
        ? new ApiError('validation_error', 'The URL path is not validly percent-encoded.')
        : new ApiError('internal_error', 'An unexpected error occurred; it is safe to retry.');
  if (apiError.code === 'internal_error') request.log.error({ err: error }, 'unexpected router error');
  // Answered before routing, so no onSend hook adds the request id header: set it here.
  void reply
    .status(apiError.status)
    .headers({ ...apiError.headers, [REQUEST_ID_HEADER]: request.id })
    .send(apiError.toEnvelope(request.id));
}

/** How long a caller is told to wait while the database is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

const databaseUnavailable = () =>
  new ApiError('api_temporarily_disabled', 'The service cannot reach its database; retry shortly.', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });

/**
 * Every non-2xx response carries the envelope `{error:{code,message,request_id}}`. Unexpected
 * errors are logged with the request id and answered with a generic message: no stack, no SQL.
 */
export function answerErrorsWithEnvelope(app: FastifyInstance): void {
  const { bodyLimitBytes } = app.deps.config;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let apiError = error instanceof ApiError ? error : fromFrameworkError(error, bodyLimitBytes);
    if (!apiError && isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      apiError = databaseUnavailable();
    }
    if (!apiError) {
      request.log.error({ err: error }, 'unexpected error');
      apiError = new ApiError('internal_error', 'An unexpected error occurred; it is safe to retry.');
    }
    return reply.status(apiError.status).headers(apiError.headers).send(apiError.toEnvelope(request.id));
  });

  // Answered before the body is read, so a 404 never turns into a 415 or 413.
  app.addHook('onRequest', async (request) => {
    if (request.is404) throw new ApiError('not_found', 'No endpoint exists at this path.');
  });
  app.setNotFoundHandler(() => {
    throw new ApiError('not_found', 'No endpoint exists at this path.');
  });
}
