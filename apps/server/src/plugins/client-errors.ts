import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ApiErrorBody, ErrorCode } from '@bulkcart/contracts';

interface ClientErrorAnswer {
  status: number;
  code: ErrorCode;
  title: string;
  message: string;
}

/** What Node found wrong before a request existed, answered in the API's one error shape. */
function answerFor(errorCode: string | undefined): ClientErrorAnswer {
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'BAD_REQUEST', title: 'Request timeout', message: 'The request took too long to arrive. Please try again.' };
  }
  if (errorCode === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'PAYLOAD_TOO_LARGE', title: 'Request too large', message: 'The request headers are too large.' };
  }
  return { status: 400, code: 'BAD_REQUEST', title: 'Bad request', message: 'The request is not valid HTTP.' };
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refuses malformed or oversized headers and slow
 * requests before any route exists, and Fastify's default answers those in its own shape. The socket
 * is closed afterwards: after a parse error the rest of the stream cannot be trusted.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = answerFor(error.code);
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body: ApiErrorBody = { error: { code: answer.code, title: answer.title, message: answer.message } };
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
