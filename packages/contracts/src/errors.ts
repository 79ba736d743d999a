import { z } from 'zod';

/** Error codes shared by server and browser; the server maps each to one HTTP status. */
export const ERROR_CODES = {
  VALIDATION: 422,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** A path of the API asked with a method it does not have; `Allow` names the ones it has. */
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  OUT_OF_STOCK: 409,
  /** POST /api/order with an `expectedUnitPrice` the server's price no longer matches. */
  PRICE_CHANGED: 409,
  BELOW_MOQ: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const errorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** The JSON body of every error answer (docs/product/api.md#errors). */
export const apiErrorBodySchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    title: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
    unitPrice: z.number().optional().describe('With PRICE_CHANGED: the unit price in dollars the server charges now'),
  }),
  cart: z.record(z.string(), z.unknown()).optional().describe('With a refused checkout: the cart as the server would charge it now (GET /api/cart)'),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
