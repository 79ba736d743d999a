import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { namesShipTo, withShipToFieldsUnprefixed } from './ship-to-errors.ts';

describe('ship-to field errors', () => {
  const error = new ApiError(422, 'VALIDATION', 'Invalid', 'City is required', { 'shipTo.city': ['City is required'], quantity: ['Too many'] });

  it('names the address form fields without the request prefix', () => {
    expect(withShipToFieldsUnprefixed(error).fieldErrors).toEqual({ city: ['City is required'], quantity: ['Too many'] });
    expect(withShipToFieldsUnprefixed(error).message).toBe('City is required');
  });

  it('tells an address problem from any other', () => {
    expect(namesShipTo(error)).toBe(true);
    expect(namesShipTo(new ApiError(422, 'VALIDATION', 'Invalid', 'x', { shipTo: ['Required'] }))).toBe(true);
    expect(namesShipTo(new ApiError(409, 'STOCK', 'Short', 'x'))).toBe(false);
    expect(namesShipTo(new TypeError('x'))).toBe(false);
  });
});
