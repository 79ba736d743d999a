import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';

function refuse(): AppError {
  return new AppError('OUT_OF_STOCK', 'sold out');
}

function fail(): AppError {
  return new AppError('UNAVAILABLE', 'database away');
}

describe('AppError', () => {
  it('captures no stack frames for a refusal (4xx), which is answered and never logged', () => {
    const error = refuse();
    expect(error.status).toBe(409);
    expect(error.stack).not.toContain('refuse');
    expect(error.stack).not.toMatch(/\n\s+at /);
  });

  it('keeps the frames of a 5xx for the log, and leaves every later error its frames', () => {
    refuse();
    expect(fail().stack).toContain('fail');
    expect(new Error('later').stack).toMatch(/\n\s+at /);
  });
});
