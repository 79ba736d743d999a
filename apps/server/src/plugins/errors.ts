import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ApiErrorBody, ErrorCode } from '@bulkcart/contracts';
import { AppError } from '../lib/app-error.ts';

/** Failures that mean "the database is not answering right now": a 503, not a 500. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Cannot use a pool after calling end/i.test(e.message)) return true;
    current = e.cause;
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
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error);
    if (known) {
      if (known.headers) reply.headers(known.headers);
      return reply.status(known.status).send(body(known.code, known.title, known.message, known.fieldErrors));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return reply.status(503).send(body('UNAVAILABLE', 'Service unavailable', 'The service is briefly unavailable. Please try again.'));
    }
    // Details go to the log only; the client never sees a stack or an internal message.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('INTERNAL', 'Error', 'Something went wrong on our side. Please try again.'));
  });
}

export function sendApiNotFound(reply: FastifyReply) {
  return reply.status(404).send(body('NOT_FOUND', 'Not found', 'No such API route.'));
}
