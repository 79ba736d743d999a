import { describe, expect, it } from 'vitest';
import { addressSchema, COUNTRIES } from './address.ts';

const warehouse = {
  company: 'Corner Store LLC',
  line1: '12 Main St',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'us',
  phone: '+1 217 555 0100',
};

describe('addressSchema', () => {
  it('accepts a complete address and normalises the country code to upper case', () => {
    expect(addressSchema.parse(warehouse)).toEqual({ ...warehouse, country: 'US' });
  });

  it('names every missing field', () => {
    const result = addressSchema.safeParse({});
    expect(result.success).toBe(false);
    const fields = result.error!.issues.map((i) => i.path.join('.')).sort();
    expect(fields).toEqual(['city', 'company', 'country', 'line1', 'phone', 'postalCode', 'region']);
  });

  it('refuses codes that are reserved or withdrawn rather than assigned', () => {
    for (const code of ['UK', 'EU', 'XK', 'ZZ', 'USA', '']) {
      expect(addressSchema.safeParse({ ...warehouse, country: code }).success, code).toBe(false);
    }
    expect(COUNTRIES.size).toBe(249);
  });

  it('refuses blank text, an over-long line and a phone without digits', () => {
    expect(addressSchema.safeParse({ ...warehouse, company: '   ' }).success).toBe(false);
    expect(addressSchema.safeParse({ ...warehouse, line1: 'x'.repeat(121) }).success).toBe(false);
    expect(addressSchema.safeParse({ ...warehouse, phone: 'call me' }).success).toBe(false);
  });
});
