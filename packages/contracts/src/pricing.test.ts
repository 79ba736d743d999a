import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampQuantity } from './quantity.ts';
import { addProductInputSchema } from './product.ts';
import { applyDiscount, formatMoney, hasAtMostTwoDecimals, toCents } from './money.ts';
import { ladderOf, nextBreak, quotePrice, type PriceLadder } from './pricing.ts';

const pens: PriceLadder = {
  priceCents: 1000,
  discount: 0,
  tiers: [
    { minquantity: 100, priceCents: 900 },
    { minquantity: 500, priceCents: 810 },
  ],
};

describe('quotePrice', () => {
  it('charges the base price below the first break and each break at and above its threshold', () => {
    expect(quotePrice(pens, 99)).toMatchObject({ unitCents: 1000, totalCents: 99_000, tierMinquantity: null, savingCents: 0 });
    expect(quotePrice(pens, 100)).toMatchObject({ unitCents: 900, totalCents: 90_000, tierMinquantity: 100, savingCents: 10_000 });
    expect(quotePrice(pens, 499)).toMatchObject({ unitCents: 900, tierMinquantity: 100 });
    expect(quotePrice(pens, 500)).toMatchObject({ unitCents: 810, totalCents: 405_000, listUnitCents: 1000, tierMinquantity: 500 });
  });

  it('takes the discount off the break reached, rounded half up to the cent', () => {
    // 900 × 0.85 = 765; 1900 × 0.85 = 1615; 35 × 0.9 = 31.5 → 32; 45 × 0.9 = 40.5 → 41.
    expect(quotePrice({ ...pens, discount: 15 }, 100).unitCents).toBe(765);
    expect(applyDiscount(1900, 15)).toBe(1615);
    expect(applyDiscount(35, 10)).toBe(32);
    expect(applyDiscount(45, 10)).toBe(41);
    expect(applyDiscount(1, 90)).toBe(0);
  });

  it('ignores the breaks when they do not apply to this buyer (the seam for verified-only breaks)', () => {
    expect(quotePrice(pens, 600, { breaksApply: false })).toMatchObject({ unitCents: 1000, tierMinquantity: null });
    expect(nextBreak(pens, 60, 1, { breaksApply: false })).toBeNull();
  });
});

describe('nextBreak', () => {
  it('names the next break, rounded up to whole cases', () => {
    expect(nextBreak(pens, 60)).toEqual({ quantity: 100, more: 40, unitCents: 900 });
    expect(nextBreak(pens, 96, 12)).toEqual({ quantity: 108, more: 12, unitCents: 900 });
    expect(nextBreak(pens, 500)).toBeNull();
  });
});

describe('money', () => {
  it('formats every amount as US currency', () => {
    expect(formatMoney(123_450)).toBe('$1,234.50');
    expect(formatMoney(35)).toBe('$0.35');
    expect(formatMoney(28_215_000)).toBe('$282,150.00');
  });

  it('accepts at most two decimals and turns them into exact cents', () => {
    expect(hasAtMostTwoDecimals(0.35)).toBe(true);
    expect(hasAtMostTwoDecimals(1234.5)).toBe(true);
    expect(hasAtMostTwoDecimals(12)).toBe(true);
    expect(hasAtMostTwoDecimals(9.999)).toBe(false);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(false);
    expect(toCents(0.35)).toBe(35);
    expect(toCents(1234.5)).toBe(123_450);
    expect(ladderOf({ price: 0.35, discount: 0, tiers: [{ minquantity: 1000, price: 0.29 }] })).toEqual({
      priceCents: 35,
      discount: 0,
      tiers: [{ minquantity: 1000, priceCents: 29 }],
    });
  });
});

describe('clampQuantity with a case pack', () => {
  it('rounds up to whole cases and never below one case', () => {
    expect(clampQuantity(13, 12)).toBe(24);
    expect(clampQuantity(0, 12)).toBe(12);
    expect(clampQuantity('abc', 6)).toBe(6);
    expect(clampQuantity(24, 12)).toBe(24);
    expect(clampQuantity(7)).toBe(7);
  });
});

/** Ladders the shared schema accepts: thresholds rising above the minimum, prices falling below the base. */
const validLadder = fc
  .record({
    priceCents: fc.integer({ min: 1, max: 100_000_000 }),
    discount: fc.integer({ min: 0, max: 90 }),
    steps: fc.array(fc.record({ gap: fc.integer({ min: 1, max: 10_000 }), cut: fc.double({ min: 0.01, max: 0.9, noNaN: true }) }), { maxLength: 5 }),
    minquantity: fc.integer({ min: 1, max: 1000 }),
  })
  .map(({ priceCents, discount, steps, minquantity }) => {
    const tiers: PriceLadder['tiers'][number][] = [];
    let quantity = minquantity;
    let cents = priceCents;
    for (const step of steps) {
      const next = Math.floor(cents * (1 - step.cut));
      if (next < 1 || next >= cents) break;
      quantity += step.gap;
      cents = next;
      tiers.push({ minquantity: quantity, priceCents: cents });
    }
    return { ladder: { priceCents, discount, tiers } satisfies PriceLadder, minquantity };
  });

describe('pricing properties', () => {
  it('the unit price never rises as the quantity rises', () => {
    fc.assert(
      fc.property(validLadder, fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 1, max: 50_000 }), ({ ladder, minquantity }, a, extra) => {
        const smaller = minquantity + a;
        expect(quotePrice(ladder, smaller + extra).unitCents).toBeLessThanOrEqual(quotePrice(ladder, smaller).unitCents);
      }),
    );
  });

  it('the total is exactly unit price × quantity in whole cents, and the saving is never negative', () => {
    fc.assert(
      fc.property(validLadder, fc.integer({ min: 1, max: 1_000_000 }), ({ ladder }, quantity) => {
        const quote = quotePrice(ladder, quantity);
        expect(Number.isSafeInteger(quote.unitCents)).toBe(true);
        expect(Number.isSafeInteger(quote.totalCents)).toBe(true);
        expect(BigInt(quote.totalCents)).toBe(BigInt(quote.unitCents) * BigInt(quantity));
        expect(quote.savingCents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('matches exact rational arithmetic: no floating point in the result', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 0, max: 90 }), (cents, discount) => {
        // Half up in BigInt: floor((c × (100 − d) × 2 + 100) / 200).
        const exact = (BigInt(cents) * BigInt(100 - discount) * 2n + 100n) / 200n;
        expect(BigInt(applyDiscount(cents, discount))).toBe(exact);
      }),
    );
  });

  it('two-decimal dollar amounts round-trip to cents exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), (cents) => {
        const dollars = cents / 100;
        expect(hasAtMostTwoDecimals(dollars)).toBe(true);
        expect(toCents(dollars)).toBe(cents);
      }),
    );
  });
});

describe('the shared product schema', () => {
  const base = { image: '/x.webp', name: 'Pens', mainquantity: 100, minquantity: 10, brandname: 'B', category: 'Office Supplies & Stationery', price: 10 };
  const errorsOf = (input: object) => {
    const result = addProductInputSchema.safeParse({ ...base, ...input });
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts a good ladder and a case pack that divides the minimum', () => {
    expect(
      errorsOf({
        casepack: 5,
        tiers: [
          { minquantity: 50, price: 9 },
          { minquantity: 100, price: 8.1 },
        ],
      }),
    ).toEqual({});
  });

  it('puts each broken rule on the field to fix', () => {
    expect(errorsOf({ tiers: [{ minquantity: 10, price: 9 }] })).toEqual({ 'tiers.0.minquantity': 'Must be more than the min buy quantity (10)' });
    expect(errorsOf({ tiers: [{ minquantity: 50, price: 10 }] })).toEqual({ 'tiers.0.price': 'Must be less than the price ($10)' });
    expect(
      errorsOf({
        tiers: [
          { minquantity: 50, price: 9 },
          { minquantity: 40, price: 9.5 },
        ],
      }),
    ).toEqual({
      'tiers.1.minquantity': 'Must be more than the previous break (50)',
      'tiers.1.price': "Must be less than the previous break's price ($9)",
    });
    expect(errorsOf({ casepack: 3 })).toEqual({ minquantity: 'Min buy quantity must be a multiple of the case pack (3)' });
    expect(errorsOf({ price: undefined, tiers: [{ minquantity: 50, price: 9 }] })).toEqual({ price: 'Set a price before adding volume breaks' });
    expect(errorsOf({ tiers: [{ minquantity: 50, price: 9.001 }] })).toEqual({ 'tiers.0.price': 'Break price can have at most two decimals (cents)' });
  });

  it('refuses a sixth break', () => {
    const tiers = [20, 30, 40, 50, 60, 70].map((minquantity, i) => ({ minquantity, price: 9 - i }));
    expect(errorsOf({ tiers })).toEqual({ tiers: 'At most 5 volume breaks' });
  });
});
