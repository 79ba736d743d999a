import { AppError } from '../../lib/app-error.ts';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** A 429 that tells the client, in words and in Retry-After, when it may try again. */
export function refuse(waitMs: number, what: string): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  return new AppError('RATE_LIMITED', `Too many ${what}. Try again in ${seconds} seconds.`, {
    headers: { 'retry-after': String(seconds) },
  });
}
