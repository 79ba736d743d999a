/**
 * The read ceiling: a bare node:http server answering fixed bytes with only content-type and
 * content-length, i.e. what Node itself costs on this machine for the same response. Run as a child
 * process by bench/api.ts (env CEILING_PORT, CEILING_BODY_FILE, CEILING_CONTENT_TYPE and optionally
 * CEILING_CONTENT_ENCODING).
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';

const port = Number(process.env.CEILING_PORT);
const body = readFileSync(String(process.env.CEILING_BODY_FILE));
const headers: Record<string, string> = { 'content-type': String(process.env.CEILING_CONTENT_TYPE), 'content-length': String(body.length) };
if (process.env.CEILING_CONTENT_ENCODING) headers['content-encoding'] = process.env.CEILING_CONTENT_ENCODING;

const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(port, '127.0.0.1', () => console.log(`ceiling listening on ${port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
