import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Cart, CheckoutAnswer, Order, Sale } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, TEST_SHIP_TO, type TestUser } from '../../../test/helpers/accounts.ts';
import { readStock, seedProduct } from '../../../test/helpers/products.ts';
import { checkout, getCart, setLine } from '../../../test/helpers/cart.ts';
import { products } from '../../db/schema/catalog.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { shipToAddresses } from '../../db/schema/orders.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { dayFromToday, markVerified } from '../../../test/helpers/business.ts';
import { queryRows } from '../../db/rows.ts';

async function countOrdersOf(env: TestEnv, buyer: TestUser): Promise<number> {
  const [row] = await queryRows<{ n: number }>(env.db(), sql`SELECT count(*)::int AS n FROM orders WHERE buyer_id = ${buyer.id}`);
  return row?.n ?? 0;
}

describeEachDatabase('checkout: POST /api/checkout', (env) => {
  let acme: TestUser;
  let globex: TestUser;

  beforeAll(async () => {
    [acme, globex] = await Promise.all([signUpUser(env(), { name: 'Acme Checkout' }), signUpUser(env(), { name: 'Globex Checkout' })]);
  });

  /** A buyer with one line from each of two sellers: $50.00 from Acme (2 lines), $43.20 from Globex. */
  async function buyerWithCart(name = 'Checkout Buyer') {
    const buyer = await signUpUser(env(), { name });
    const sku = `CO-PEN-${randomUUID().slice(0, 8)}`;
    const pens = await seedProduct(env(), acme, { name: 'Pens', sku, priceCents: 200, discount: 0, minquantity: 10, mainquantity: 100 });
    const pads = await seedProduct(env(), acme, { name: 'Pads', priceCents: 150, discount: 0, minquantity: 20, mainquantity: 100 });
    const kettle = await seedProduct(env(), globex, { name: 'Kettle', priceCents: 1200, discount: 10, minquantity: 2, casepack: 2, mainquantity: 10 });
    await setLine(env(), asUser(buyer), pens.id, 10);
    await setLine(env(), asUser(buyer), pads.id, 20);
    const cart = await setLine(env(), asUser(buyer), kettle.id, 4);
    return { buyer, pens, pads, kettle, cart, sku };
  }

  it('answers 401 signed out and 400 without an Idempotency-Key, placing nothing', async () => {
    const { buyer, cart } = await buyerWithCart();
    expect((await checkout(env(), {} as { cookie: string }, { expectedTotal: cart.total }, randomUUID())).statusCode).toBe(401);
    const noKey = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({ error: { code: 'BAD_REQUEST', title: 'Idempotency-Key needed' } });
    expect(await countOrdersOf(env(), buyer)).toBe(0);
  });

  it('places one order per seller with the PO number, moves the stock, empties the cart and tells each side', async () => {
    const { buyer, pens, pads, kettle, cart, sku } = await buyerWithCart();
    expect(cart.total).toBe(93.2);
    const response = await checkout(env(), asUser(buyer), { expectedTotal: 93.2, poNumber: ' PO-2026-0042 ' }, randomUUID());
    expect(response.statusCode).toBe(201);
    const placed = (response.json() as CheckoutAnswer).orders;
    expect(placed).toHaveLength(2);
    const [fromAcme, fromGlobex] = placed as [Order, Order];
    expect(fromAcme).toMatchObject({
      status: 'placed',
      number: expect.stringMatching(/^BC-\d+$/),
      sellerName: 'Acme Checkout',
      buyerName: 'Checkout Buyer',
      total: 50,
      poNumber: 'PO-2026-0042',
      shipTo: TEST_SHIP_TO,
    });
    expect(fromAcme.lines.map((l) => [l.productId, l.quantity, l.unitPrice, l.lineTotal, l.product.sku])).toEqual(
      [
        [pens.id, 10, 2, 20, sku],
        [pads.id, 20, 1.5, 30, null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(fromGlobex).toMatchObject({
      sellerName: 'Globex Checkout',
      total: 43.2,
      poNumber: 'PO-2026-0042',
      productId: kettle.id,
      quantity: 4,
      unitPrice: 10.8,
    });
    expect(fromAcme.timeline).toEqual([expect.objectContaining({ from: null, to: 'placed', actor: 'buyer' })]);
    expect([await readStock(env(), pens.id), await readStock(env(), pads.id), await readStock(env(), kettle.id)]).toEqual([90, 80, 6]);
    expect(await getCart(env(), asUser(buyer))).toEqual({ lines: [], sellers: [], total: 0, count: 0 });

    // The buyer's orders page and each seller's desk list them like any order.
    const mine = (await env().request({ method: 'GET', url: `/api/orders/${encodeURIComponent(buyer.email)}`, headers: asUser(buyer) })).json() as Order[];
    expect(mine.map((o) => o._id).sort()).toEqual(placed.map((o) => o._id).sort());
    const acmeDesk = (await env().request({ method: 'GET', url: `/api/sales/${fromAcme._id}`, headers: asUser(acme) })).json() as Sale;
    expect(acmeDesk).toMatchObject({ poNumber: 'PO-2026-0042', total: 50 });
    expect((await env().request({ method: 'GET', url: `/api/sales/${fromAcme._id}`, headers: asUser(globex) })).statusCode).toBe(404);

    // Each seller is told of their order; the buyer once, of the whole checkout.
    const told = await env().db().select().from(notifications).where(eq(notifications.userId, buyer.id));
    expect(told).toEqual([expect.objectContaining({ kind: 'checkout', title: 'Checkout placed 2 orders', orderId: null })]);
    expect(told[0]?.message).toContain(`${fromAcme.number}, ${fromGlobex.number}`);
    expect(told[0]?.message).toContain('PO PO-2026-0042');
    const sellerNotices = await env()
      .db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, 'placed'), eq(notifications.orderId, fromAcme._id)));
    expect(sellerNotices.map((n) => n.userId)).toEqual([acme.id]);
  });

  it('answers the same orders for the same key, never new ones; another total under that key is a 422', async () => {
    const { buyer, pens, cart } = await buyerWithCart();
    const key = randomUUID();
    const first = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, key);
    expect(first.statusCode).toBe(201);
    const again = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countOrdersOf(env(), buyer)).toBe(2);
    expect(await readStock(env(), pens.id)).toBe(90);
    const other = await checkout(env(), asUser(buyer), { expectedTotal: 1 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ error: { title: 'Idempotency-Key already used' } });
  });

  it('answers a repeat with the same orders even when its saved ship-to is gone since (the key is met before any refusal)', async () => {
    const { buyer, pens, cart } = await buyerWithCart();
    const key = randomUUID();
    const first = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, key);
    expect(first.statusCode).toBe(201);
    // As another process (or the account's own housekeeping) could: the default address is gone.
    await env().db().delete(shipToAddresses).where(eq(shipToAddresses.userId, buyer.id));
    const again = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countOrdersOf(env(), buyer)).toBe(2);
    expect(await readStock(env(), pens.id)).toBe(90);
    // A new key meets the refusal itself.
    const fresh = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
    expect(fresh.statusCode).toBe(422);
    expect(fresh.json()).toMatchObject({ error: { title: 'Ship-to address needed' } });
  });

  it('places nothing when one line is short of stock (409 naming the line), and no stock moves', async () => {
    const { buyer, pens, pads, kettle, cart } = await buyerWithCart();
    await env().db().update(products).set({ mainquantity: 2 }).where(eq(products.id, kettle.id));
    const response = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
    expect(response.statusCode).toBe(409);
    const body = response.json() as { error: { fieldErrors: Record<string, string[]> }; cart: Cart };
    expect(body.error).toMatchObject({
      code: 'OUT_OF_STOCK',
      title: 'sorry supply is short',
      fieldErrors: { [`lines.${kettle.id}`]: ['we have only 2 units.'] },
    });
    expect(Object.keys(body.error.fieldErrors)).toEqual([`lines.${kettle.id}`]);
    expect(body.cart.lines.find((l) => l.productId === kettle.id)?.problem).toEqual({ code: 'short', message: 'we have only 2 units.', quantity: 2 });
    expect([await readStock(env(), pens.id), await readStock(env(), pads.id), await readStock(env(), kettle.id)]).toEqual([100, 100, 2]);
    expect(await countOrdersOf(env(), buyer)).toBe(0);
    expect((await getCart(env(), asUser(buyer))).count).toBe(3);
  });

  it('places nothing below a seller’s minimum (422 naming the seller and what is missing)', async () => {
    const { buyer, pens, cart } = await buyerWithCart();
    const minimum = await env().request({ method: 'PUT', url: '/api/seller/settings', headers: asUser(globex), payload: { minimumOrder: 66.7 } });
    expect(minimum.statusCode).toBe(200);
    try {
      const response = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        error: {
          code: 'VALIDATION',
          title: 'Cart needs changes',
          fieldErrors: { [`sellers.${globex.id}`]: ['Add $23.50 more from Globex Checkout to check out'] },
        },
        cart: {
          sellers: [expect.objectContaining({ sellerName: 'Acme Checkout', shortBy: 0 }), expect.objectContaining({ minimumOrder: 66.7, shortBy: 23.5 })],
        },
      });
      expect(await readStock(env(), pens.id)).toBe(100);
      expect(await countOrdersOf(env(), buyer)).toBe(0);
    } finally {
      await env().request({ method: 'PUT', url: '/api/seller/settings', headers: asUser(globex), payload: { minimumOrder: null } });
    }
  });

  it('lists every line at fault at once, rules before stock: a deleted product, a raised MOQ and a short line is a 422', async () => {
    const { buyer, pens, pads, kettle, cart } = await buyerWithCart();
    await env().db().delete(products).where(eq(products.id, pens.id));
    await env().db().update(products).set({ minquantity: 40 }).where(eq(products.id, pads.id));
    await env().db().update(products).set({ mainquantity: 2 }).where(eq(products.id, kettle.id));
    const response = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
    expect(response.statusCode).toBe(422);
    expect((response.json() as { error: { fieldErrors: unknown } }).error.fieldErrors).toEqual({
      [`lines.${pens.id}`]: ['This product is no longer sold.'],
      [`lines.${pads.id}`]: ['You must buy at least 40 units.'],
      [`lines.${kettle.id}`]: ['we have only 2 units.'],
    });
    expect([await readStock(env(), pads.id), await readStock(env(), kettle.id)]).toEqual([100, 2]);
    expect(await countOrdersOf(env(), buyer)).toBe(0);
  });

  it('prices a verified buyer’s checkout with the volume breaks, and with none once the permit has lapsed', async () => {
    const buyer = await signUpUser(env(), { name: 'Verified Checkout Buyer' });
    await markVerified(env(), buyer.id);
    const product = await seedProduct(env(), acme, {
      priceCents: 1000,
      discount: 0,
      minquantity: 10,
      mainquantity: 1000,
      priceBreaks: [{ minquantity: 100, priceCents: 900 }],
    });
    expect((await setLine(env(), asUser(buyer), product.id, 100)).total).toBe(900);
    const verified = await checkout(env(), asUser(buyer), { expectedTotal: 900, shipTo: TEST_SHIP_TO }, randomUUID());
    expect(verified.statusCode, verified.body).toBe(201);
    expect((verified.json() as CheckoutAnswer).orders[0]).toMatchObject({ total: 900, unitPrice: 9 });

    await env()
      .db()
      .update(businessProfiles)
      .set({ permitExpires: dayFromToday(0) })
      .where(eq(businessProfiles.userId, buyer.id));
    expect((await setLine(env(), asUser(buyer), product.id, 100)).total).toBe(1000);
    const lapsed = await checkout(env(), asUser(buyer), { expectedTotal: 900, shipTo: TEST_SHIP_TO }, randomUUID());
    expect(lapsed.statusCode).toBe(409);
    const listPrice = await checkout(env(), asUser(buyer), { expectedTotal: 1000, shipTo: TEST_SHIP_TO }, randomUUID());
    expect(listPrice.statusCode, listPrice.body).toBe(201);
    expect((listPrice.json() as CheckoutAnswer).orders[0]).toMatchObject({ total: 1000, unitPrice: 10 });
  });

  it('refuses a total other than the server’s with 409 "Prices changed" and the new cart; the new total then checks out', async () => {
    const { buyer, pens, cart } = await buyerWithCart();
    await env().db().update(products).set({ priceCents: 210 }).where(eq(products.id, pens.id));
    const stale = await checkout(env(), asUser(buyer), { expectedTotal: cart.total }, randomUUID());
    expect(stale.statusCode).toBe(409);
    const body = stale.json() as { error: object; cart: Cart };
    expect(body.error).toEqual({
      code: 'CONFLICT',
      title: 'Prices changed',
      message: 'The total is now $94.20, not the $93.20 you were shown. Check the cart and confirm again; nothing was placed.',
    });
    expect(body.cart.total).toBe(94.2);
    expect(body.cart.lines.find((l) => l.productId === pens.id)?.problem).toMatchObject({ code: 'price_changed' });
    expect(await readStock(env(), pens.id)).toBe(100);
    expect(await countOrdersOf(env(), buyer)).toBe(0);
    // Having seen the new total, the buyer confirms it: a changed price is not a refusal in itself.
    const confirmed = await checkout(env(), asUser(buyer), { expectedTotal: 94.2 }, randomUUID());
    expect(confirmed.statusCode).toBe(201);
  });

  it('refuses an empty cart, a missing total, a PO number past 40 characters and a cart nobody can ship', async () => {
    const empty = await signUpUser(env(), { name: 'Empty Cart Buyer' });
    const nothing = await checkout(env(), asUser(empty), { expectedTotal: 0 }, randomUUID());
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json()).toMatchObject({ error: { message: 'Your cart is empty.' } });
    const { buyer, cart } = await buyerWithCart();
    expect((await checkout(env(), asUser(buyer), {}, randomUUID())).statusCode).toBe(422);
    expect((await checkout(env(), asUser(buyer), { expectedTotal: 1.234 }, randomUUID())).statusCode).toBe(422);
    const longPo = await checkout(env(), asUser(buyer), { expectedTotal: cart.total, poNumber: 'P'.repeat(41) }, randomUUID());
    expect(longPo.json()).toMatchObject({ error: { fieldErrors: { poNumber: ['The PO number must be at most 40 characters'] } } });
    const homeless = await signUpUser(env(), { name: 'Homeless Buyer', withShipTo: false });
    const product = await seedProduct(env(), acme, { minquantity: 1 });
    const line = await setLine(env(), asUser(homeless), product.id, 1);
    const noAddress = await checkout(env(), asUser(homeless), { expectedTotal: line.total }, randomUUID());
    expect(noAddress.statusCode).toBe(422);
    expect(noAddress.json()).toMatchObject({ error: { title: 'Ship-to address needed' } });
    expect(await countOrdersOf(env(), buyer)).toBe(0);
    // With the address in the body it goes through, and the address is kept as the buyer's default.
    const shipped = await checkout(env(), asUser(homeless), { expectedTotal: line.total, shipTo: TEST_SHIP_TO }, randomUUID());
    expect(shipped.statusCode).toBe(201);
    expect((await env().request({ method: 'GET', url: '/api/account/ship-to', headers: asUser(homeless) })).json()).toEqual({ shipTo: TEST_SHIP_TO });
  });
});
