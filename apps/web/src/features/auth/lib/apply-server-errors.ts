import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * Puts the server's per-field messages on the form's fields (the server runs the same schema, so they
 * match the form's own) and returns the message to show under the form.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, fields: ReadonlyArray<Path<T>>, setError: UseFormSetError<T>): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const known = fields.find((f) => f === field);
    if (known && messages[0]) setError(known, { type: 'server', message: messages[0] });
  }
  return error.message;
}
