import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody, ErrorCode } from '@bulkcart/contracts';
import { AppError } from '../lib/app-error.ts';
import { createRepeatLimiter } from '../lib/repeat-limiter.ts';

/** Failures that mean "the database is not answering right now": a 503, not a 500. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

/**
 * better-auth wraps any failure while reading a session (in practice: the database did not answer) in
 * its own 500 "Failed to get session", dropping the cause; every signed-in request meets it first.
 */
function isSessionStoreFailure(error: unknown): boolean {
  const e = error as { statusCode?: unknown; body?: { code?: unknown } };
  return e.statusCode === 500 && e.body?.code === 'FAILED_TO_GET_SESSION';
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (isSessionStoreFailure(error)) return true;
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Cannot use a pool after calling end/i.test(e.message)) return true;
    current = e.cause;
  }
  return false;
}

/**
 * PostgreSQL data exceptions that only a client's value can cause (a NUL character in text, a string or
 * number out of range, a value of the wrong form). Validation should catch these first; when one slips
 * through it is still bad input, a 400 that changed nothing (the statement failed, and with it its
 * transaction), never a 500. Other class-22 codes (division by zero…) stay 500s: they are our bugs.
 */
const UNSTORABLE_VALUE_CODES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);

export function isUnstorableValue(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNSTORABLE_VALUE_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function body(code: ErrorCode, title: string, message: string, fieldErrors?: Record<string, string[]>): ApiErrorBody {
  return { error: { code, title, message, ...(fieldErrors ? { fieldErrors } : {}) } };
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
      return reply.status(known.status).send(body(known.code, known.title, known.message, known.fieldErrors));
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
