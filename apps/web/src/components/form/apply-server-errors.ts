import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api-client.ts';

/**
 * Puts the server's per-field messages on the form's fields (the server runs the same zod schema, so
 * they are the form's own words) and returns what belongs under the form as a whole: messages for
 * fields the form does not have, else the error's message when no field got one, else null.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, fields: ReadonlyArray<Path<T>>, setError: UseFormSetError<T>): string | null {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  const unplaced: string[] = [];
  let placed = false;
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const message = messages.join(' ');
    const known = fields.find((name) => name === field);
    if (known && message) {
      setError(known, { type: 'server', message });
      placed = true;
    } else if (message) {
      unplaced.push(message);
    }
  }
  if (unplaced.length > 0) return unplaced.join(' ');
  return placed ? null : error.message;
}
