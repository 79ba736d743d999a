import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { checkPurchase, describePurchaseError } from './purchase-checks.ts';

describe('checkPurchase', () => {
  it('passes a quantity at the minimum with enough stock', () => {
    expect(checkPurchase({ minquantity: 10, mainquantity: 10 }, 10)).toBeNull();
  });

  it('refuses a quantity below the minimum with the spec texts', () => {
    expect(checkPurchase({ minquantity: 50, mainquantity: 1000 }, 49)).toEqual({
      title: 'Minimum quantity not met',
      text: 'You must buy at least 50 units.',
    });
  });

  it('refuses when the stock is below the minimum, with the stock in the text', () => {
    expect(checkPurchase({ minquantity: 50, mainquantity: 12 }, 50)).toEqual({ title: 'sorry supply is short', text: 'we have only 12 units.' });
  });

  it('leaves a quantity above the stock to the server (the spec compares stock with the minimum only)', () => {
    expect(checkPurchase({ minquantity: 5, mainquantity: 20 }, 21)).toBeNull();
  });
});

describe('describePurchaseError', () => {
  it('keeps the titles of the stock and minimum refusals', () => {
    const stock = new ApiError(409, 'OUT_OF_STOCK', 'sorry supply is short', 'we have only 3 units.');
    expect(describePurchaseError(stock)).toEqual({ title: 'sorry supply is short', text: 'we have only 3 units.' });
  });

  it('keeps the title of a price that changed before Buy', () => {
    const changed = new ApiError(409, 'PRICE_CHANGED', 'The price changed', 'The price changed: it is now $10.50 a unit (you saw $10.00).');
    expect(describePurchaseError(changed)).toEqual({ title: 'The price changed', text: 'The price changed: it is now $10.50 a unit (you saw $10.00).' });
  });

  it('titles every other failure Error, with its message', () => {
    expect(describePurchaseError(new ApiError(409, 'CONFLICT', 'Conflict', 'No price yet.'))).toEqual({ title: 'Error', text: 'No price yet.' });
    expect(describePurchaseError(new Error('offline'))).toEqual({ title: 'Error', text: 'offline' });
  });
});
