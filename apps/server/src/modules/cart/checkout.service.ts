import { asc, eq, sql } from 'drizzle-orm';
import { CART_TEXT, formatMoney, MESSAGES, toCents, VERIFY_TEXT, type CheckoutInput, type Order } from '@bulkcart/contracts';
import { paths } from '@bulkcart/contracts/routes';
import { cartLines, checkouts, type CheckoutRow } from '../../db/schema/cart.ts';
import { orders } from '../../db/schema/orders.ts';
import { AppError, forbidden } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/error-causes.ts';
import { pricingOf } from '../business/index.ts';
import type { NotificationToWrite } from '../notifications/index.ts';
import type { Tx } from '../../db/client.ts';
import {
  assertCanBuy,
  destinationOf,
  draftOrder,
  loadOrders,
  lockProductsForPlacement,
  reserveOrderNumbers,
  takeLockedStock,
  writeOrders,
  type AlsoStatement,
  type PlacedOrder,
} from '../orders/index.ts';
import { preparedQuery, preparedRowLookup, slot } from '../../db/prepared.ts';
import { priceCart, toCart, type PricedCart } from './cart-pricing.ts';
import type { CartContext } from './cart.service.ts';
import { indexBuyable, lockCart, readForCheckout } from './cart.queries.ts';

export interface CheckoutContext extends CartContext {
  clock: () => Date;
}

const keyRequired = () =>
  new AppError('BAD_REQUEST', 'Send an Idempotency-Key header with every checkout, the same one when you retry it.', { title: 'Idempotency-Key needed' });

/** The same key with another total or PO number: a different checkout under a used key (see orders.service.ts). */
const keyUsedForAnotherCheckout = () =>
  new AppError('VALIDATION', 'This Idempotency-Key was already used for a different checkout.', { title: 'Idempotency-Key already used' });

/** Asked when a checkout fails as a repeat can (on its key's row, or on its ship-to): a named statement, planned once per connection. */
const checkoutByKey = preparedRowLookup(checkouts, { buyer: checkouts.buyerId, key: checkouts.idempotencyKey });

async function findCheckout(ctx: CheckoutContext, key: string): Promise<CheckoutRow | undefined> {
  return checkoutByKey(ctx.db, { buyer: ctx.user.id, key });
}

/**
 * The orders a checkout placed, in the order it answered them: by order number, which it gave out in
 * that order (the rows themselves are written in seller order, place-order.ts writeOrders). BC-9999
 * comes before BC-10000: shorter numbers first.
 */
async function ordersOf(ctx: CheckoutContext, checkoutId: string): Promise<Order[]> {
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(eq(orders.checkoutId, checkoutId))
    .orderBy(sql`length(${orders.number})`, asc(orders.number));
  return loadOrders(ctx.db, rows, ctx.clock());
}

function expectedCents(input: CheckoutInput): number {
  return toCents(input.expectedTotal);
}

/** A repeat of a key answers the orders it placed, when it asks for the same checkout. */
async function replay(ctx: CheckoutContext, row: CheckoutRow, input: CheckoutInput): Promise<{ orders: Order[]; replayed: true }> {
  if (row.expectedTotalCents !== expectedCents(input) || (row.poNumber ?? null) !== (input.poNumber ?? null)) throw keyUsedForAnotherCheckout();
  return { orders: await ordersOf(ctx, row.id), replayed: true };
}

/**
 * Every reason the cart cannot be checked out as it stands, at once: each line at fault under
 * `lines.{productId}`, each seller whose minimum is not met under `sellers.{sellerId}`. A rule or a
 * minimum (the buyer must change the cart) is a 422; only stock is a 409.
 */
function refusalOf(priced: PricedCart): AppError | null {
  const fieldErrors: Record<string, string[]> = {};
  let rule = false;
  let stock = false;
  for (const line of priced.lines) {
    if (!line.blocking || !line.problem) continue;
    fieldErrors[`lines.${line.productId}`] = [line.problem.message];
    if (line.blocking === 'rule') rule = true;
    else stock = true;
  }
  for (const seller of priced.sellers) {
    if (seller.shortByCents <= 0) continue;
    fieldErrors[`sellers.${seller.sellerId ?? seller.key}`] = [CART_TEXT.addMore(formatMoney(seller.shortByCents), seller.sellerName)];
    rule = true;
  }
  const cart = toCart(priced);
  if (rule)
    return new AppError('VALIDATION', 'Some lines or sellers need a change before checkout; nothing was placed.', {
      title: 'Cart needs changes',
      fieldErrors,
      cart,
    });
  if (stock) return new AppError('OUT_OF_STOCK', 'Some lines are short of stock; nothing was placed.', { title: MESSAGES.stockTitle, fieldErrors, cart });
  return null;
}

function pricesChanged(priced: PricedCart, input: CheckoutInput): AppError {
  return new AppError(
    'CONFLICT',
    `The total is now ${formatMoney(priced.totalCents)}, not the ${formatMoney(expectedCents(input))} you were shown. Check the cart and confirm again; nothing was placed.`,
    { title: CART_TEXT.pricesChangedTitle, cart: toCart(priced) },
  );
}

/** The buyer's one notice for the whole checkout (each seller is told of their own order as always). */
function buyerNotice(ctx: CheckoutContext, numbers: string[], totalCents: number, poNumber: string | null): NotificationToWrite {
  const count = numbers.length === 1 ? '1 order' : `${numbers.length} orders`;
  return {
    userId: ctx.user.id,
    email: ctx.user.email,
    path: paths.cart,
    orderId: null,
    orderNumber: null,
    orderStatus: null,
    kind: 'checkout',
    title: `Checkout placed ${count}`,
    message: `Your checkout placed ${numbers.join(', ')} (${formatMoney(totalCents)}${poNumber ? `, PO ${poNumber}` : ''}). Each seller accepts their order within 3 business days.`,
  };
}

/** The checked-out lines leave the cart, in the orders' statement (place-order.ts writeOrders): one shape for every cart. */
function emptyCart(buyerId: string, productIds: string[]): AlsoStatement {
  return {
    shape: 'cart',
    values: { cart_buyer: buyerId, cart_products: productIds },
    build: () =>
      sql`DELETE FROM ${cartLines} WHERE ${cartLines.buyerId} = ${slot('cart_buyer')} AND ${cartLines.productId} = ANY(${slot('cart_products')}::uuid[])`,
  };
}

/** The checkout's row, first in its transaction: prepared once per connection (db/prepared.ts). */
const insertCheckout = preparedQuery(
  { id: checkouts.id },
  (list) =>
    sql`INSERT INTO ${checkouts} (${sql.join(
      [checkouts.buyerId, checkouts.idempotencyKey, checkouts.expectedTotalCents, checkouts.poNumber].map((column) => sql.identifier(column.name)),
      sql`, `,
    )}) VALUES (${slot('buyer')}, ${slot('key')}, ${slot('total')}, ${slot('po')}) RETURNING ${list}`,
);

/**
 * The whole checkout in one transaction (docs/decisions/017-cart-and-checkout.md): the key's row first
 * (a concurrent repeat waits on its unique index, then replays), the cart's lock, every product of the
 * cart locked in id order and read once, then one check of everything: any line or seller at fault
 * refuses it all, and so does a total other than the one the buyer saw. Only then one order per seller
 * written as every order is (orders/place-order.ts), in one statement with every line's units taken, the
 * buyer's notice and the emptied cart. Any refusal rolls it all back.
 */
async function checkoutInTransaction(tx: Tx, ctx: CheckoutContext, input: CheckoutInput, key: string): Promise<PlacedOrder[]> {
  const poNumber = input.poNumber ?? null;
  const [row] = await insertCheckout(tx, { buyer: ctx.user.id, key, total: expectedCents(input), po: poNumber });
  if (!row) throw new Error('checkout insert returned no row');
  await lockCart(tx, ctx.user.id);
  const { lines, status, savedShipTo } = await readForCheckout(tx, ctx.user.id);
  const destination = destinationOf(input.shipTo, savedShipTo);
  const buyer = pricingOf(ctx.config.buyerVerification, status);
  if (!buyer.canOrder) throw forbidden(VERIFY_TEXT.required, { title: VERIFY_TEXT.requiredTitle });
  if (lines.length === 0) throw new AppError('VALIDATION', CART_TEXT.cartEmpty, { title: 'Nothing to check out' });
  const locked = await lockProductsForPlacement(
    tx,
    lines.map((l) => l.productId),
  );
  const { products, sellers } = indexBuyable(locked);
  const priced = priceCart({ lines, products, sellers, buyerId: ctx.user.id, breaksApply: buyer.breaksApply });
  const refusal = refusalOf(priced);
  if (refusal) throw refusal;
  if (priced.totalCents !== expectedCents(input)) throw pricesChanged(priced, input);
  if (!Number.isSafeInteger(priced.totalCents)) {
    throw new AppError('VALIDATION', 'This checkout is too large to price; split it into smaller ones.');
  }

  const numbers = await reserveOrderNumbers(ctx.db, tx, priced.sellers.length);
  let written = false;
  try {
    const drafts = priced.sellers.map((seller, i) =>
      draftOrder(
        {
          buyer: ctx.user,
          breaksApply: buyer.breaksApply,
          lines: priced.lines.filter((l) => l.sellerKey === seller.key).map((l) => ({ productId: l.productId, quantity: l.quantity })),
          idempotencyKey: null,
          poNumber,
          checkoutId: row.id,
        },
        locked,
        numbers.numbers[i] as string,
        destination,
      ),
    );
    // Every row is locked and checked already: the decrement in the orders' statement cannot refuse a line.
    const placed = await writeOrders(tx, ctx.config, ctx.user, drafts, {
      destination,
      numbers,
      notifications: [
        buyerNotice(
          ctx,
          drafts.map((d) => d.order.number),
          priced.totalCents,
          poNumber,
        ),
      ],
      statements: [
        takeLockedStock(priced.lines),
        emptyCart(
          ctx.user.id,
          priced.lines.map((l) => l.productId),
        ),
      ],
    });
    written = true;
    return placed;
  } finally {
    // Unless the orders' statement ran, no order holds these numbers (a failed one wrote nothing).
    if (!written) numbers.giveBack();
  }
}

/**
 * POST /api/checkout. The same key again answers the same orders, never new ones. A repeat is found when
 * it fails, as Buy Now's is (orders.service.ts createOrder): on the key's unique index, whether the first
 * committed long ago or is committing now (the repeat's insert, its transaction's first statement,
 * waits for it, then fails, and nothing of the repeat stays). Every refusal comes after that insert
 * (the saved ship-to is read in the transaction too), so a repeat meets its key before any of them. A
 * new checkout, by far the most common, asks nothing up front.
 */
export async function checkout(
  ctx: CheckoutContext,
  input: CheckoutInput & { idempotencyKey: string | null },
): Promise<{ orders: Order[]; replayed: boolean }> {
  const { idempotencyKey: key, ...request } = input;
  if (!key) throw keyRequired();
  assertCanBuy(ctx.user);
  try {
    const placed = await ctx.db.transaction((tx) => checkoutInTransaction(tx, ctx, request, key));
    const now = ctx.clock();
    return { orders: placed.map((order) => order.answer(now)), replayed: false };
  } catch (error) {
    // A refusal inside the transaction is never a repeat's: a repeat fails on the key's row first.
    if (isUniqueViolation(error)) return replayOrThrow(ctx, key, request, error);
    throw error;
  }
}

/** A failure a repeat can meet: the checkout its key placed, if there is one, else the failure itself. */
async function replayOrThrow(ctx: CheckoutContext, key: string, request: CheckoutInput, error: unknown): Promise<{ orders: Order[]; replayed: true }> {
  const first = await findCheckout(ctx, key);
  if (first) return replay(ctx, first, request);
  throw error;
}
