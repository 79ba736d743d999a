import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api-client.ts';

/**
 * Puts the server's per-field messages on the form's fields (the server runs the same zod schema, so
 * they are the form's own words) and returns the message for under the form's button: the messages
 * of fields the form does not have, else the error's own (docs/product/screens.md: sign-up errors show in red under the form).
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, fields: ReadonlyArray<Path<T>>, setError: UseFormSetError<T>): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  const unplaced: string[] = [];
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const message = messages.join(' ');
    const known = fields.find((name) => name === field);
    if (known && message) setError(known, { type: 'server', message });
    else if (message) unplaced.push(message);
  }
  return unplaced.length > 0 ? unplaced.join(' ') : error.message;
}

/**
 * The server's refusal shown on the form: each field's message on its field, the rest as the form's
 * own error, `errors.root.server` (for under its button). react-hook-form clears root errors when
 * the form is submitted again, so no form keeps an error state of its own.
 */
export function showServerError<T extends FieldValues>(error: unknown, fields: ReadonlyArray<Path<T>>, setError: UseFormSetError<T>): void {
  setError('root.server', { type: 'server', message: applyServerErrors(error, fields, setError) });
}
