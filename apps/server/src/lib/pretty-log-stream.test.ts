import { describe, expect, it } from 'vitest';
import { formatLogLine } from './pretty-log-stream.ts';

describe('formatLogLine (development terminals)', () => {
  it('turns an access-log line into one line of text', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 10, 23, 12, 4, 31),
      pid: 1,
      hostname: 'h',
      reqId: 'req-12345678',
      method: 'GET',
      path: '/api/products',
      status: 200,
      ms: 3.1,
      userId: 'u1',
      msg: 'GET /api/products 200',
    });
    expect(formatLogLine(line)).toBe('12:04:31 INFO  GET /api/products 200 3.1 ms  user=u1 req=req-12345678\n');
  });

  it('keeps other fields and prints an error stack below its line', () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      msg: 'unhandled error',
      signal: 'SIGTERM',
      err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' },
    });
    expect(formatLogLine(line)).toBe('00:00:00 ERROR unhandled error {"signal":"SIGTERM"}\nError: boom\n    at x (y.ts:1:1)\n');
  });

  it('passes through what is not JSON', () => {
    expect(formatLogLine('plain text')).toBe('plain text\n');
  });
});
