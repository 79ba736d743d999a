import { z } from 'zod';
import { AppError } from './app-error.ts';

/** Parses with a shared contract schema; failures become one 422 with a message per field. */
export function parseInput<S extends z.core.$ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = z.safeParse(schema, value ?? {});
  if (result.success) return result.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const first = result.error.issues[0]?.message ?? 'Invalid input';
  throw new AppError('VALIDATION', first, { fieldErrors });
}
