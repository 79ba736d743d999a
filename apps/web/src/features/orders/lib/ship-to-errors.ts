import { ApiError } from '@/lib/api-client.ts';

const PREFIX = 'shipTo.';

/**
 * The server names a ship-to field `shipTo.city` (the request's own path); the dialog's address form
 * calls it `city`. The error with those keys unprefixed, the others kept, for applyServerErrors.
 */
export function withShipToFieldsUnprefixed(error: ApiError): ApiError {
  const fieldErrors = Object.fromEntries(
    Object.entries(error.fieldErrors).map(([key, messages]) => [key.startsWith(PREFIX) ? key.slice(PREFIX.length) : key, messages]),
  );
  return new ApiError(error.status, error.code, error.title, error.message, fieldErrors);
}

/** Whether a refused purchase is about the address (then the form is shown to fix it). */
export function namesShipTo(error: unknown): boolean {
  return error instanceof ApiError && Object.keys(error.fieldErrors).some((key) => key === 'shipTo' || key.startsWith(PREFIX));
}
