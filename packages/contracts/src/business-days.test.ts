import { describe, expect, it } from 'vitest';
import { addBusinessDays, isoDateSchema, shipByWindow } from './order.ts';

const at = (iso: string) => new Date(iso);

describe('business days (Monday–Friday, UTC)', () => {
  it('skips weekends and keeps the time of day', () => {
    // 2026-11-20 is a Friday.
    expect(addBusinessDays(at('2026-11-20T15:30:00Z'), 1).toISOString()).toBe('2026-11-23T15:30:00.000Z');
    expect(addBusinessDays(at('2026-11-20T15:30:00Z'), 3).toISOString()).toBe('2026-11-25T15:30:00.000Z');
    expect(addBusinessDays(at('2026-11-18T09:00:00Z'), 3).toISOString()).toBe('2026-11-23T09:00:00.000Z');
    // Placed on a Saturday: the first business day is Monday.
    expect(addBusinessDays(at('2026-11-21T12:00:00Z'), 1).toISOString()).toBe('2026-11-23T12:00:00.000Z');
    expect(addBusinessDays(at('2026-11-21T12:00:00Z'), 0).toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });

  it('offers today to three business days ahead, two by default', () => {
    expect(shipByWindow(at('2026-11-23T23:59:00Z'))).toEqual({ min: '2026-11-23', default: '2026-11-25', max: '2026-11-26' });
    expect(shipByWindow(at('2026-11-26T08:00:00Z'))).toEqual({ min: '2026-11-26', default: '2026-11-30', max: '2026-12-01' });
  });

  it('takes real calendar dates only', () => {
    expect(isoDateSchema.safeParse('2028-02-29').success).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '26-11-23', '2026-11-23T00:00:00Z', '']) {
      expect(isoDateSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
