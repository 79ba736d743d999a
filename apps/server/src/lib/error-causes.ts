/**
 * Database drivers and ORMs wrap the error that matters: Drizzle's DrizzleQueryError holds the driver's
 * error in `cause`, and better-auth or a transaction may wrap that again. Every question about "what
 * really failed" walks the same chain, a few links deep (a cycle must not hang the error handler).
 */
const MAX_CAUSE_DEPTH = 5;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** True when `error` or one of its causes passes `test`. */
export function someCause(error: unknown, test: (link: ErrorLike) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < MAX_CAUSE_DEPTH; depth++) {
    const link = current as ErrorLike;
    if (test(link)) return true;
    current = link.cause;
  }
  return false;
}

/** True when the error or one of its causes carries one of `codes` (PostgreSQL SQLSTATE or a Node errno). */
export function hasCauseCode(error: unknown, codes: ReadonlySet<string>): boolean {
  return someCause(error, (link) => typeof link.code === 'string' && codes.has(link.code));
}

const UNIQUE_VIOLATION = new Set(['23505']);

export function isUniqueViolation(error: unknown): boolean {
  return hasCauseCode(error, UNIQUE_VIOLATION);
}

/** Failures that mean "the database is not answering right now": a 503, not a 500. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);
/** node-postgres says some of them only in words. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Cannot use a pool after calling end/i;

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
  return someCause(
    error,
    (link) =>
      (typeof link.code === 'string' && UNAVAILABLE_CODES.has(link.code)) || (typeof link.message === 'string' && UNAVAILABLE_MESSAGE.test(link.message)),
  );
}

/**
 * PostgreSQL data exceptions that only a client's value can cause (a NUL character in text, a string or
 * number out of range, a value of the wrong form). Validation should catch these first; when one slips
 * through it is still bad input, a 400 that changed nothing (the statement failed, and with it its
 * transaction), never a 500. Other class-22 codes (division by zero…) stay 500s: they are our bugs.
 */
const UNSTORABLE_VALUE_CODES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);

export function isUnstorableValue(error: unknown): boolean {
  return hasCauseCode(error, UNSTORABLE_VALUE_CODES);
}
