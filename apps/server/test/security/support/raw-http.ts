import http from 'node:http';
import type { FastifyInstance, InjectOptions } from 'fastify';

export interface RawAnswer {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): unknown;
}

/**
 * Sends a request with its path exactly as written, as curl --path-as-is does. app.inject (and
 * `new URL`) would resolve dot segments and backslashes first, hiding the very spellings under test.
 */
export function sendRaw(port: number, options: InjectOptions): Promise<RawAnswer> {
  // A Buffer (a multipart upload) goes as it is, with the content type its case gives.
  const payload =
    options.payload === undefined
      ? undefined
      : typeof options.payload === 'string' || Buffer.isBuffer(options.payload)
        ? options.payload
        : JSON.stringify(options.payload);
  const headers: Record<string, string | number> = {
    ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
    ...(options.headers as Record<string, string> | undefined),
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: String(options.url), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) as unknown });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Starts the app on a free loopback port and answers the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
