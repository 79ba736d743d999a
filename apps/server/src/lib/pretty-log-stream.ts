import { Writable } from 'node:stream';

/**
 * For a person at a terminal in development: pino's JSON lines turned into
 * `12:04:31 INFO  GET /api/products 200 3.1 ms  user=… req=…`. Production, and any output that is
 * not a terminal (a file, a pipe, a log shipper), keeps the JSON lines.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'method', 'path', 'status', 'ms', 'userId', 'err']);

export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `${line}\n`;
  }
  const time = new Date(Number(entry.time)).toISOString().slice(11, 19);
  const parts = [time, LEVELS[Number(entry.level)] ?? String(entry.level), String(entry.msg ?? '')];
  if (typeof entry.ms === 'number') parts.push(`${entry.ms} ms`);
  if (entry.userId) parts.push(` user=${String(entry.userId)}`);
  if (entry.reqId) parts.push(`req=${String(entry.reqId)}`);
  const rest = Object.fromEntries(Object.entries(entry).filter(([key]) => !SHOWN_APART.has(key)));
  if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
  const err = entry.err as { stack?: string } | undefined;
  return `${parts.join(' ')}${err?.stack ? `\n${err.stack}` : ''}\n`;
}

export function createPrettyLogStream(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) out.write(formatLogLine(line));
      done();
    },
  });
}
