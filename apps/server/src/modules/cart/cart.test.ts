import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Cart } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { markVerified } from '../../../test/helpers/business.ts';
import { seedProduct, seedProducts, UNKNOWN_ID } from '../../../test/helpers/products.ts';
import { addedResults, addLines, getCart, putLine, setLine } from '../../../test/helpers/cart.ts';
import { products } from '../../db/schema/catalog.ts';
import { cartLines } from '../../db/schema/cart.ts';

async function countLines(env: TestEnv, buyer: TestUser): Promise<number> {
  return (await env.db().select({ id: cartLines.id }).from(cartLines).where(eq(cartLines.buyerId, buyer.id))).length;
}

async function changeProduct(env: TestEnv, id: string, changes: Partial<typeof products.$inferInsert>): Promise<void> {
  await env.db().update(products).set(changes).where(eq(products.id, id));
}

describeEachDatabase('cart: GET, PUT and DELETE /api/cart', (env) => {
  let buyer: TestUser;
  let acme: TestUser;
  let globex: TestUser;

  beforeAll(async () => {
    [buyer, acme, globex] = await Promise.all([
      signUpUser(env(), { name: 'Cart Buyer' }),
      signUpUser(env(), { name: 'Acme Supplies' }),
      signUpUser(env(), { name: 'Globex Wholesale' }),
    ]);
  });

  async function freshBuyer(name = 'Fresh Cart Buyer'): Promise<TestUser> {
    return signUpUser(env(), { name });
  }

  it('answers 401 to every cart call when signed out, and stores nothing', async () => {
    const product = await seedProduct(env(), acme, {});
    expect((await env().request({ method: 'GET', url: '/api/cart' })).statusCode).toBe(401);
    expect((await putLine(env(), {} as { cookie: string }, product.id, 10)).statusCode).toBe(401);
    expect((await env().request({ method: 'DELETE', url: `/api/cart/lines/${product.id}` })).statusCode).toBe(401);
    expect((await addLines(env(), {} as { cookie: string }, { text: 'X 1' })).statusCode).toBe(401);
    expect(await env().db().select().from(cartLines).where(eq(cartLines.productId, product.id))).toEqual([]);
  });

  it('starts empty', async () => {
    expect(await getCart(env(), asUser(await freshBuyer()))).toEqual({ lines: [], sellers: [], total: 0, count: 0 });
  });

  it('groups lines by seller with prices the server would charge (discount rounded half up) and totals in cents', async () => {
    const me = await freshBuyer();
    const pens = await seedProduct(env(), acme, { name: 'Gel Pens', sku: 'PEN-12', priceCents: 1999, discount: 15, minquantity: 10 });
    const paper = await seedProduct(env(), acme, { name: 'Copy Paper', priceCents: 350, discount: 0, minquantity: 5 });
    const kettle = await seedProduct(env(), globex, { name: 'Kettle', priceCents: 1200, discount: 10, minquantity: 2, casepack: 2 });
    await setLine(env(), asUser(me), pens.id, 10);
    await setLine(env(), asUser(me), kettle.id, 4);
    const cart = await setLine(env(), asUser(me), paper.id, 7);

    // $19.99 less 15% is $16.9915, rounded half up to $16.99.
    expect(cart.lines).toEqual([
      {
        productId: pens.id,
        sku: 'PEN-12',
        name: 'Gel Pens',
        image: pens.image,
        sellerId: acme.id,
        sellerName: 'Acme Supplies',
        quantity: 10,
        unitPrice: 16.99,
        listUnitPrice: 19.99,
        lineTotal: 169.9,
        minquantity: 10,
        casepack: 1,
        available: 1000,
        problem: null,
      },
      expect.objectContaining({ productId: kettle.id, sku: null, sellerName: 'Globex Wholesale', quantity: 4, unitPrice: 10.8, lineTotal: 43.2, casepack: 2 }),
      expect.objectContaining({ productId: paper.id, sellerName: 'Acme Supplies', quantity: 7, unitPrice: 3.5, lineTotal: 24.5 }),
    ]);
    expect(cart.sellers).toEqual([
      { sellerId: acme.id, sellerName: 'Acme Supplies', subtotal: 194.4, minimumOrder: null, shortBy: 0 },
      { sellerId: globex.id, sellerName: 'Globex Wholesale', subtotal: 43.2, minimumOrder: null, shortBy: 0 },
    ]);
    expect(cart.total).toBe(237.6);
    expect(cart.count).toBe(3);
    // The same cart on the next read, and from a bearer token of the same account.
    expect(await getCart(env(), asUser(me))).toEqual(cart);
    expect(await getCart(env(), { authorization: `Bearer ${me.token}` })).toEqual(cart);
  });

  it('gives volume breaks to a verified buyer only, as Buy Now does', async () => {
    const plain = await freshBuyer('Plain Cart Buyer');
    const verified = await freshBuyer('Verified Cart Buyer');
    await markVerified(env(), verified.id);
    const product = await seedProduct(env(), acme, { priceCents: 1000, discount: 0, minquantity: 10, priceBreaks: [{ minquantity: 100, priceCents: 900 }] });
    expect((await setLine(env(), asUser(plain), product.id, 100)).lines[0]).toMatchObject({ unitPrice: 10, listUnitPrice: 10, lineTotal: 1000 });
    expect((await setLine(env(), asUser(verified), product.id, 100)).lines[0]).toMatchObject({ unitPrice: 9, listUnitPrice: 10, lineTotal: 900 });
  });

  it('sets, changes and removes a line (PUT 0 and DELETE)', async () => {
    const me = await freshBuyer();
    const product = await seedProduct(env(), acme, { minquantity: 10 });
    await setLine(env(), asUser(me), product.id, 10);
    expect((await setLine(env(), asUser(me), product.id, 30)).lines).toEqual([expect.objectContaining({ quantity: 30 })]);
    expect(await setLine(env(), asUser(me), product.id, 0)).toMatchObject({ lines: [], count: 0 });
    await setLine(env(), asUser(me), product.id, 20);
    const removed = await env().request({ method: 'DELETE', url: `/api/cart/lines/${product.id}`, headers: asUser(me) });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ lines: [], count: 0 });
    const again = await env().request({ method: 'DELETE', url: `/api/cart/lines/${product.id}`, headers: asUser(me) });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'This product is not in your cart.' } });
  });

  it('refuses a quantity below the MOQ (422, the spec texts) and off the case pack (422), leaving the cart as it was', async () => {
    const me = await freshBuyer();
    const product = await seedProduct(env(), acme, { minquantity: 24, casepack: 12 });
    const below = await putLine(env(), asUser(me), product.id, 12);
    expect(below.statusCode).toBe(422);
    expect(below.json()).toEqual({ error: { code: 'BELOW_MOQ', title: 'Minimum quantity not met', message: 'You must buy at least 24 units.' } });
    const off = await putLine(env(), asUser(me), product.id, 30);
    expect(off.statusCode).toBe(422);
    expect(off.json()).toMatchObject({ error: { title: 'Whole cases only', message: 'This product is sold in cases of 12: order a multiple of 12 units.' } });
    expect(await countLines(env(), me)).toBe(0);
    await setLine(env(), asUser(me), product.id, 36);
    expect((await putLine(env(), asUser(me), product.id, 40)).statusCode).toBe(422);
    expect((await getCart(env(), asUser(me))).lines[0]?.quantity).toBe(36);
  });

  it('refuses the seller’s own product (403 as in Buy Now), unknown and malformed ids (404), and an unpriced product (409)', async () => {
    const own = await seedProduct(env(), buyer, { minquantity: 1 });
    expect((await putLine(env(), asUser(buyer), own.id, 5)).json()).toEqual({
      error: { code: 'FORBIDDEN', title: 'Not allowed', message: 'You cannot buy your own product.' },
    });
    expect((await putLine(env(), asUser(buyer), UNKNOWN_ID, 5)).statusCode).toBe(404);
    expect((await putLine(env(), asUser(buyer), 'not-a-uuid', 5)).statusCode).toBe(404);
    const unpriced = await seedProduct(env(), acme, { priceCents: null, minquantity: 1 });
    expect((await putLine(env(), asUser(buyer), unpriced.id, 5)).statusCode).toBe(409);
    const soldOut = await seedProduct(env(), acme, { mainquantity: 3, minquantity: 5 });
    expect((await putLine(env(), asUser(buyer), soldOut.id, 5)).json()).toMatchObject({
      error: { code: 'OUT_OF_STOCK', title: 'sorry supply is short', message: 'we have only 3 units.' },
    });
    expect(await countLines(env(), buyer)).toBe(0);
  });

  it.each([
    ['a fraction', 10.5],
    ['a negative number', -10],
    ['more than 1,000,000', 1_000_001],
    ['a string', '10'],
    ['null', null],
  ])('refuses %s as a quantity (422) and stores nothing', async (_label, quantity) => {
    const me = await freshBuyer();
    const product = await seedProduct(env(), acme, { minquantity: 1 });
    const response = await putLine(env(), asUser(me), product.id, quantity);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION', fieldErrors: { quantity: [expect.any(String)] } } });
    expect(await countLines(env(), me)).toBe(0);
  });

  it('takes up to 1,000,000 units on a line (the stock is the checkout’s question)', async () => {
    const me = await freshBuyer();
    const product = await seedProduct(env(), acme, { minquantity: 1, mainquantity: 50 });
    const cart = await setLine(env(), asUser(me), product.id, 1_000_000);
    expect(cart.lines[0]).toMatchObject({ quantity: 1_000_000, problem: { code: 'short', message: 'we have only 50 units.', quantity: 50 } });
  });

  it('keeps each buyer’s cart their own', async () => {
    const a = await freshBuyer('Cart Owner A');
    const b = await freshBuyer('Cart Owner B');
    const product = await seedProduct(env(), acme, { minquantity: 1 });
    await setLine(env(), asUser(a), product.id, 3);
    expect((await getCart(env(), asUser(b))).lines).toEqual([]);
    // B removing "the same product" removes nothing of A's.
    expect((await env().request({ method: 'DELETE', url: `/api/cart/lines/${product.id}`, headers: asUser(b) })).statusCode).toBe(404);
    expect((await getCart(env(), asUser(a))).lines).toHaveLength(1);
  });

  it('is the same cart after signing out and in again (it lives on the server)', async () => {
    const me = await freshBuyer();
    const product = await seedProduct(env(), acme, { minquantity: 1 });
    await setLine(env(), asUser(me), product.id, 3);
    expect((await env().request({ method: 'POST', url: '/api/auth/sign-out', headers: asUser(me) })).statusCode).toBe(200);
    const signIn = await env().request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: me.email, password: me.password } });
    expect(signIn.statusCode).toBe(200);
    const cookie = String([signIn.headers['set-cookie']].flat().find((c) => String(c).startsWith('better-auth.session_token='))).split(';')[0] ?? '';
    expect((await getCart(env(), { cookie })).lines).toEqual([expect.objectContaining({ productId: product.id, quantity: 3 })]);
  });

  it('tells what changed since a line was added: price, stock, MOQ, case pack, deletion; each with its fix', async () => {
    const me = await freshBuyer();
    const [pricey, short, soldOut, moq, cases, gone] = await seedProducts(env(), acme, [
      { name: 'Pricey', priceCents: 1000, discount: 0, minquantity: 1 },
      { name: 'Short', minquantity: 5, casepack: 5 },
      { name: 'Sold out', minquantity: 5 },
      { name: 'Raised MOQ', minquantity: 5 },
      { name: 'New case pack', minquantity: 6 },
      { name: 'Gone', sku: 'GONE-1', minquantity: 1 },
    ]);
    for (const [product, quantity] of [
      [pricey, 10],
      [short, 50],
      [soldOut, 5],
      [moq, 5],
      [cases, 8],
      [gone, 2],
    ] as const) {
      await setLine(env(), asUser(me), product!.id, quantity);
    }
    await changeProduct(env(), pricey!.id, { priceCents: 1100 });
    await changeProduct(env(), short!.id, { mainquantity: 23 });
    await changeProduct(env(), soldOut!.id, { mainquantity: 4 });
    await changeProduct(env(), moq!.id, { minquantity: 20 });
    await changeProduct(env(), cases!.id, { casepack: 6 });
    await env().db().delete(products).where(eq(products.id, gone!.id));

    const cart = await getCart(env(), asUser(me));
    const problems = Object.fromEntries(cart.lines.map((l) => [l.name, l.problem]));
    expect(problems).toEqual({
      Pricey: { code: 'price_changed', message: 'The price changed from $10.00 to $11.00 a unit since you added it.', quantity: 10 },
      Short: { code: 'short', message: 'we have only 23 units.', quantity: 20 },
      'Sold out': { code: 'sold_out', message: 'Sold out: we have only 4 units.', quantity: null },
      'Raised MOQ': { code: 'below_moq', message: 'You must buy at least 20 units.', quantity: 20 },
      'New case pack': { code: 'not_whole_cases', message: 'This product is sold in cases of 6: order a multiple of 6 units.', quantity: 12 },
      Gone: { code: 'deleted', message: 'This product is no longer sold.', quantity: null },
    });
    // The deleted line keeps its copy and counts nothing towards the total.
    expect(cart.lines.find((l) => l.name === 'Gone')).toMatchObject({ sku: 'GONE-1', sellerName: 'Acme Supplies', lineTotal: 0, available: 0 });
    expect(cart.lines.find((l) => l.name === 'Pricey')).toMatchObject({ unitPrice: 11, lineTotal: 110 });

    // Each fix: setting the line again accepts the price; the suggested quantities clear the others.
    await setLine(env(), asUser(me), pricey!.id, 10);
    await setLine(env(), asUser(me), short!.id, 20);
    await setLine(env(), asUser(me), moq!.id, 20);
    await setLine(env(), asUser(me), cases!.id, 12);
    expect((await env().request({ method: 'DELETE', url: `/api/cart/lines/${gone!.id}`, headers: asUser(me) })).statusCode).toBe(200);
    expect((await env().request({ method: 'DELETE', url: `/api/cart/lines/${soldOut!.id}`, headers: asUser(me) })).statusCode).toBe(200);
    const fixed = await getCart(env(), asUser(me));
    expect(fixed.lines.map((l) => l.problem)).toEqual([null, null, null, null]);
  });
});

describeEachDatabase('cart: POST /api/cart/lines (quick order and paste)', (env) => {
  let acme: TestUser;
  let globex: TestUser;

  beforeAll(async () => {
    [acme, globex] = await Promise.all([signUpUser(env(), { name: 'Paste Acme' }), signUpUser(env(), { name: 'Paste Globex' })]);
    await seedProducts(env(), acme, [
      { name: 'Paste pens', sku: 'P-PEN', minquantity: 10 },
      { name: 'Paste paper', sku: 'P-PAPER', minquantity: 5, casepack: 5 },
      { name: 'Paste tape', sku: 'P-TAPE', minquantity: 1 },
      { name: 'Paste shared (Acme)', sku: 'P-SHARED', minquantity: 1 },
    ]);
    await seedProducts(env(), globex, [
      { name: 'Paste clips', sku: 'p-clip', minquantity: 2 },
      { name: 'Paste shared (Globex)', sku: 'p-shared', minquantity: 1 },
    ]);
  });

  it('adds pasted rows (spaces, tabs, commas, semicolons, any case) and answers each row; a bad row does not stop the others', async () => {
    const me = await signUpUser(env(), { name: 'Paste Buyer' });
    const text = ['p-pen 20', 'P-PAPER\t15', '', 'P-CLIP,4', 'P-TAPE;1', 'NOPE-1 3'].join('\n');
    const results = await addedResults(env(), asUser(me), { text });
    expect(results).toEqual([
      { row: 1, status: 'added', productId: expect.any(String), sku: 'P-PEN', quantity: 20 },
      { row: 2, status: 'added', productId: expect.any(String), sku: 'P-PAPER', quantity: 15 },
      { row: 4, status: 'added', productId: expect.any(String), sku: 'p-clip', quantity: 4 },
      { row: 5, status: 'added', productId: expect.any(String), sku: 'P-TAPE', quantity: 1 },
      { row: 6, status: 'error', sku: 'NOPE-1', message: 'Unknown SKU NOPE-1.' },
    ]);
    const cart = await getCart(env(), asUser(me));
    expect(cart.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ['P-PEN', 20],
      ['P-PAPER', 15],
      ['p-clip', 4],
      ['P-TAPE', 1],
    ]);
    expect(cart.sellers.map((s) => s.sellerName)).toEqual(['Paste Acme', 'Paste Globex']);
  });

  it('says why a row is refused: quantity, MOQ, case pack, odd characters, a SKU several sellers use (with candidates)', async () => {
    const me = await signUpUser(env(), { name: 'Refused Paste Buyer' });
    const text = ['P-PEN 1.5', 'P-PEN -3', 'P-PEN abc', 'P-PEN 2000000', 'P-PEN', 'P-PEN 5', 'P-PAPER 7', 'P<EN> 3', 'P-SHARED 2'].join('\n');
    const results = await addedResults(env(), asUser(me), { text });
    const quantityText = 'Quantity must be a whole number from 1 to 1,000,000';
    expect(results.map((r) => [r.row, r.status, r.message])).toEqual([
      [1, 'error', quantityText],
      [2, 'error', quantityText],
      [3, 'error', quantityText],
      [4, 'error', quantityText],
      [5, 'error', quantityText],
      [6, 'error', 'You must buy at least 10 units.'],
      [7, 'error', 'This product is sold in cases of 5: order a multiple of 5 units.'],
      [8, 'error', 'SKU may hold only letters, digits, "-", "_", "." and "/".'],
      [9, 'error', 'SKU P-SHARED is sold by 2 sellers: choose one.'],
    ]);
    expect(results[8]?.candidates).toEqual(
      expect.arrayContaining([
        { productId: expect.any(String), sellerName: 'Paste Acme', name: 'Paste shared (Acme)' },
        { productId: expect.any(String), sellerName: 'Paste Globex', name: 'Paste shared (Globex)' },
      ]),
    );
    expect((await getCart(env(), asUser(me))).lines).toEqual([]);

    // Choosing a candidate by its product id adds it.
    const chosen = results[8]!.candidates!.find((c) => c.sellerName === 'Paste Globex')!;
    const picked = await addedResults(env(), asUser(me), { lines: [{ productId: chosen.productId, quantity: 2 }] });
    expect(picked).toEqual([{ row: 1, status: 'added', productId: chosen.productId, sku: 'p-shared', quantity: 2 }]);
  });

  it('adds rows for a product already in the cart on top, the MOQ holding for the sum', async () => {
    const me = await signUpUser(env(), { name: 'Summing Buyer' });
    const results = await addedResults(env(), asUser(me), {
      lines: [
        { sku: 'P-PEN', quantity: 10 },
        { sku: 'p-pen', quantity: 5 },
      ],
    });
    expect(results.map((r) => r.status)).toEqual(['added', 'added']);
    expect((await getCart(env(), asUser(me))).lines).toEqual([expect.objectContaining({ sku: 'P-PEN', quantity: 15 })]);
  });

  it('refuses more than 500 rows with a clear 422, and a 10,000-row paste too, adding nothing', async () => {
    const me = await signUpUser(env(), { name: 'Big Paste Buyer' });
    const many = await addLines(env(), asUser(me), { text: Array.from({ length: 501 }, () => 'P-TAPE 1').join('\n') });
    expect(many.statusCode).toBe(422);
    expect(many.json()).toMatchObject({ error: { code: 'VALIDATION', message: 'Paste at most 500 rows at a time; this paste has 501.' } });
    const huge = await addLines(env(), asUser(me), { text: Array.from({ length: 10_000 }, (_, i) => `SKU-${i} 1`).join('\n') });
    expect([413, 422]).toContain(huge.statusCode);
    expect(huge.json()).toMatchObject({ error: { code: expect.stringMatching(/^(VALIDATION|PAYLOAD_TOO_LARGE)$/) } });
    const rows = await addLines(env(), asUser(me), { lines: Array.from({ length: 501 }, () => ({ sku: 'P-TAPE', quantity: 1 })) });
    expect(rows.statusCode).toBe(422);
    expect(rows.json()).toMatchObject({ error: { message: 'At most 500 rows at a time' } });
    expect(await getCart(env(), asUser(me))).toMatchObject({ count: 0 });
    expect((await addLines(env(), asUser(me), {})).statusCode).toBe(422);
    expect((await addLines(env(), asUser(me), { text: '\n \n' })).statusCode).toBe(422);
  });

  it('holds at most 200 lines: past that a PUT is a 422 and pasted rows say the cart is full', async () => {
    const me = await signUpUser(env(), { name: 'Full Cart Buyer' });
    const many = await seedProducts(
      env(),
      globex,
      Array.from({ length: 201 }, () => ({ minquantity: 1 })),
    );
    const results = await addedResults(env(), asUser(me), { lines: many.slice(0, 200).map((p) => ({ productId: p.id, quantity: 1 })) });
    expect(results.every((r) => r.status === 'added')).toBe(true);
    const last = many[200]!;
    const put = await putLine(env(), asUser(me), last.id, 1);
    expect(put.statusCode).toBe(422);
    expect(put.json()).toMatchObject({ error: { message: 'Your cart is full: it holds at most 200 lines.' } });
    expect(
      await addedResults(env(), asUser(me), {
        lines: [
          { productId: last.id, quantity: 1 },
          { productId: many[0]!.id, quantity: 1 },
        ],
      }),
    ).toEqual([
      { row: 1, status: 'error', productId: last.id, message: 'Your cart is full: it holds at most 200 lines.' },
      { row: 2, status: 'added', productId: many[0]!.id, quantity: 1 },
    ]);
    const cart: Cart = await getCart(env(), asUser(me));
    expect(cart.count).toBe(200);
    expect(cart.lines[0]?.quantity).toBe(2);
  });

  it('finds SKUs by their start for the typeahead: any case, exact first, "_" as itself, never the buyer’s own', async () => {
    const me = await signUpUser(env(), { name: 'Typeahead Buyer' });
    await seedProducts(env(), globex, [
      { name: 'Underscore A', sku: 'P_UND1' },
      { name: 'Underscore B', sku: 'PXUND2' },
    ]);
    await seedProducts(env(), me, [{ name: 'My own', sku: 'P-PENCIL' }]);
    const find = (q: string) => env().request({ method: 'GET', url: `/api/skus?q=${encodeURIComponent(q)}`, headers: asUser(me) });
    const byStart = (await find('p-pa')).json() as Array<{ sku: string; name: string; sellerName: string; minquantity: number; casepack: number }>;
    expect(byStart).toEqual([
      { productId: expect.any(String), sku: 'P-PAPER', name: 'Paste paper', sellerName: 'Paste Acme', price: 5, minquantity: 5, casepack: 5, available: 1000 },
    ]);
    expect(((await find('p-pen')).json() as Array<{ sku: string }>).map((m) => m.sku)).toEqual(['P-PEN']);
    expect(((await find('P_')).json() as Array<{ sku: string }>).map((m) => m.sku)).toEqual(['P_UND1']);
    expect(((await find('p-shared')).json() as Array<{ sku: string }>).map((m) => m.sku.toLowerCase())).toEqual(['p-shared', 'p-shared']);
    expect((await find('zzz')).json()).toEqual([]);
    expect((await find(' ')).statusCode).toBe(422);
    expect((await env().request({ method: 'GET', url: '/api/skus?q=p' })).statusCode).toBe(401);
  });

  it('refuses unknown and malformed product ids per row', async () => {
    const me = await signUpUser(env(), { name: 'Unknown Row Buyer' });
    const results = await addedResults(env(), asUser(me), {
      lines: [{ productId: UNKNOWN_ID, quantity: 1 }, { productId: 'nope', quantity: 1 }, { quantity: 1 }],
    });
    expect(results.map((r) => r.message)).toEqual([
      'Unknown product: it does not exist or is no longer sold.',
      'Unknown product: it does not exist or is no longer sold.',
      'Give a SKU or a product.',
    ]);
  });
});
