import { ERROR_CODES, type ErrorCode } from '@bulkcart/contracts';

const DEFAULT_TITLES: Record<ErrorCode, string> = {
  VALIDATION: 'Invalid input',
  BAD_REQUEST: 'Bad request',
  UNAUTHENTICATED: 'Sign in required',
  FORBIDDEN: 'Not allowed',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  CONFLICT: 'Conflict',
  OUT_OF_STOCK: 'sorry supply is short',
  PRICE_CHANGED: 'The price changed',
  BELOW_MOQ: 'Minimum quantity not met',
  PAYLOAD_TOO_LARGE: 'Request too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported content type',
  RATE_LIMITED: 'Too many requests',
  UNAVAILABLE: 'Service unavailable',
  INTERNAL: 'Error',
};

/** The one error type services throw; the error plugin turns it into a status and JSON body. */
export class AppError extends Error {
  readonly status: number;
  readonly title: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { title?: string; fieldErrors?: Record<string, string[]>; headers?: Record<string, string>; unitPrice?: number; cart?: unknown } = {},
  ) {
    // A refusal (4xx) is an answer, not a fault: the error handler answers it without logging it, so
    // nobody reads its stack, and capturing them cost ~24 µs per order placed in a sold-out Buy Now run
    // (docs/benchmarks-history.md). A 5xx keeps its frames for the log.
    const stackTraceLimit = Error.stackTraceLimit;
    if (ERROR_CODES[code] < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
    this.title = options.title ?? DEFAULT_TITLES[code];
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
    this.unitPrice = options.unitPrice;
    this.cart = options.cart;
  }
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** PRICE_CHANGED: the unit price in dollars the server charges now. */
  readonly unitPrice: number | undefined;
  /** A checkout's refusal carries the cart as the server would charge it now (docs/product/api.md#errors). */
  readonly cart: unknown;
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what);
export const forbidden = (message = 'You are not allowed to do this.', options: { title?: string } = {}) => new AppError('FORBIDDEN', message, options);
export const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Please sign in first.');
