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
