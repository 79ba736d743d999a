import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { applyServerErrors } from './apply-server-errors.ts';

type Values = { name: string; email: string };
const FIELDS = ['name', 'email'] as const;

function collect() {
  const set: Record<string, string | undefined> = {};
  const setError = (name: string, error: { message?: string }) => {
    set[name] = error.message;
  };
  return { set, setError };
}

describe('applyServerErrors', () => {
  it("puts each message on its field and the error's own under the form", () => {
    const { set, setError } = collect();
    const error = new ApiError(400, 'VALIDATION', 'Invalid', 'Check the form', { name: ['Too short', 'Letters only'], email: ['Taken'] });
    expect(applyServerErrors<Values>(error, FIELDS, setError)).toBe('Check the form');
    expect(set).toEqual({ name: 'Too short Letters only', email: 'Taken' });
  });

  it('returns the messages of fields the form does not have, for under the form', () => {
    const { set, setError } = collect();
    const error = new ApiError(400, 'VALIDATION', 'Invalid', 'Check the form', { name: ['Too short'], sellerEmail: ['Not yours'] });
    expect(applyServerErrors<Values>(error, FIELDS, setError)).toBe('Not yours');
    expect(set).toEqual({ name: 'Too short' });
  });

  it("returns the error's own message when it names no field", () => {
    const { set, setError } = collect();
    const error = new ApiError(422, 'USER_EXISTS', 'Taken', 'User already exists. Use another email.', {});
    expect(applyServerErrors<Values>(error, FIELDS, setError)).toBe('User already exists. Use another email.');
    expect(set).toEqual({});
  });

  it('says something went wrong for an error that is not an API answer', () => {
    const { setError } = collect();
    expect(applyServerErrors<Values>(new TypeError('Failed to fetch'), FIELDS, setError)).toBe('Something went wrong. Please try again.');
  });
});
