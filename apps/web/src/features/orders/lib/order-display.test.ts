import { describe, expect, it } from 'vitest';
import { actorOf, addressOneLine, canBuyAgain, canCancel, canMarkReceived, formatIsoDate, sellerMoves } from './order-display.ts';

describe('order display rules', () => {
  it('offers each side only the moves its status allows', () => {
    expect(sellerMoves('placed')).toEqual(['accept', 'decline']);
    expect(sellerMoves('accepted')).toEqual(['ship']);
    expect(sellerMoves('shipped')).toEqual(['deliver']);
    for (const s of ['delivered', 'declined', 'cancelled'] as const) expect(sellerMoves(s)).toEqual([]);
    expect(canCancel({ status: 'placed' })).toBe(true);
    expect(canCancel({ status: 'accepted' })).toBe(false);
    expect(canMarkReceived({ status: 'shipped' })).toBe(true);
    expect(canMarkReceived({ status: 'accepted' })).toBe(false);
    expect(['placed', 'accepted', 'shipped', 'delivered', 'declined', 'cancelled'].filter((status) => canBuyAgain({ status: status as never }))).toEqual([
      'delivered',
      'declined',
      'cancelled',
    ]);
  });

  it('shows a ship-by date as that calendar day in any time zone', () => {
    expect(formatIsoDate('2026-11-27', 'en-US')).toBe('Fri, Nov 27, 2026');
    expect(formatIsoDate('not a date', 'en-US')).toBe('not a date');
  });

  it('writes an address on one line, skipping the empty second line', () => {
    const address = { company: 'Acme', line1: '1 Dock Rd', city: 'Leeds', region: 'WY', postalCode: 'LS1 4AB', country: 'GB', phone: '+44 113 000' };
    expect(addressOneLine(address)).toBe('Acme, 1 Dock Rd, Leeds, WY LS1 4AB, GB');
    expect(addressOneLine({ ...address, line2: 'Unit 4' })).toBe('Acme, 1 Dock Rd, Unit 4, Leeds, WY LS1 4AB, GB');
  });

  it('names who acted', () => {
    expect(actorOf({ actor: 'system', actorName: null })).toBe('BulkCart');
    expect(actorOf({ actor: 'seller', actorName: 'Box Co' })).toBe('Box Co (seller)');
    expect(actorOf({ actor: 'buyer', actorName: null })).toBe('Buyer');
  });
});
