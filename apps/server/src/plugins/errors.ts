import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody, ErrorCode } from '@bulkcart/contracts';
import { AppError } from '../lib/app-error.ts';
import { createRepeatLimiter } from '../lib/repeat-limiter.ts';
import { isDatabaseUnavailable, isUnstorableValue } from '../lib/error-causes.ts';

function body(code: ErrorCode, title: string, message: string, fieldErrors?: Record<string, string[]>, unitPrice?: number, cart?: unknown): ApiErrorBody {
  return {
    error: { code, title, message, ...(fieldErrors ? { fieldErrors } : {}), ...(unitPrice !== undefined ? { unitPrice } : {}) },
    ...(cart !== undefined ? { cart: cart as Record<string, unknown> } : {}),
  };
}

/** Maps Fastify's own client errors (bad JSON, too large, wrong type) to our codes. */
function fromFastifyError(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('BAD_REQUEST', 'The request body is not valid JSON.');
  }
  if (error.statusCode === 429) return new AppError('RATE_LIMITED', 'Too many requests. Try again later.');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('BAD_REQUEST', error instanceof SyntaxError ? 'The request body is not valid JSON.' : 'Bad request.');
  }
  return null;
}

export async function registerErrorHandling(app: FastifyInstance): Promise<void> {
  // Every request of an outage meets the same failure; the access log already counts the 503s.
  const decideOutageLine = createRepeatLimiter();
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error);
    if (known) {
      if (known.headers) reply.headers(known.headers);
      return reply
        .status(known.status)
        .send(body(known.code, known.title, known.message, known.fieldErrors, known.unitPrice, known instanceof AppError ? known.cart : undefined));
    }
    if (isDatabaseUnavailable(error)) {
      const { write, suppressed } = decideOutageLine('database unavailable');
      if (write) request.log.warn({ err: error, ...(suppressed > 0 ? { suppressedSinceLast: suppressed } : {}) }, 'database unavailable');
      reply.header('retry-after', '5');
      return reply.status(503).send(body('UNAVAILABLE', 'Service unavailable', 'The service is briefly unavailable. Please try again.'));
    }
    if (isUnstorableValue(error)) {
      request.log.warn({ err: error }, 'value the database cannot store');
      return reply.status(400).send(body('BAD_REQUEST', 'Bad request', 'The request contains a value that cannot be stored (for example a NUL character).'));
    }
    // Details go to the log only; the client never sees a stack or an internal message.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('INTERNAL', 'Error', 'Something went wrong on our side. Please try again.'));
  });
}

/**
 * Errors Fastify raises before routing (a URL that does not decode, a path parameter over the router's
 * length limit) skip the error handler and get Fastify's own body. Passed as `frameworkErrors` to the
 * Fastify constructor (app.ts), they answer in the one error shape too. With the limit above the
 * longest email, an over-long parameter names nothing: a 404 rather than Fastify's 414.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') return reply.status(400).send(body('BAD_REQUEST', 'Bad request', 'The URL is not valid.'));
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(404).send(body('NOT_FOUND', 'Not found', 'No such API route.'));
  request.log.error({ err: error }, 'router error');
  return reply.status(500).send(body('INTERNAL', 'Error', 'Something went wrong on our side. Please try again.'));
}

export function sendApiNotFound(reply: FastifyReply) {
  return reply.status(404).send(body('NOT_FOUND', 'Not found', 'No such API route.'));
}
