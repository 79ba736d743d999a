import type { Tx } from '../../db/client.ts';
import { and, eq, gte, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { formatMoney, quotePrice, type Address, type PriceQuote } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import { user as users } from '../../db/schema/auth.ts';
import { products } from '../../db/schema/catalog.ts';
import { sellerSettings } from '../../db/schema/cart.ts';
import { orderLines, orders, shipToAddresses, type OrderRow } from '../../db/schema/orders.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { SessionUser } from '../accounts/session.ts';
import { notifyEvent, recordEvent } from './order-workflow.ts';
import { belowMoq, notWholeCases, outOfStock, ownProduct, priceChanged, unpriced } from './purchase-rules.ts';

export interface PlacementLine {
  productId: string;
  quantity: number;
  /** Buy Now's `expectedUnitPrice` in cents: the price the buyer agreed to; another one refuses the order. */
  expectedUnitCents?: number;
}

/** One order to place: one seller's products, for one buyer, to one address. */
export interface Placement {
  buyer: SessionUser;
  /** Whether volume breaks apply to this buyer, as read in this transaction (docs/decisions/014). */
  breaksApply: boolean;
  /** One or more products of the same seller. */
  lines: PlacementLine[];
  shipTo: Address;
  /** Save `shipTo` as the buyer's default (their first address). */
  saveShipTo: boolean;
  /** Buy Now's key; a checkout keeps its key on the checkout row instead. */
  idempotencyKey: string | null;
  poNumber: string | null;
  checkoutId: string | null;
}

const productNotFound = () => notFound('Product not found');

const totalTooLarge = () =>
  new AppError('VALIDATION', 'This order is too large to price; split it into smaller orders.', { fieldErrors: { quantity: ['Quantity is too large'] } });

export const MINIMUM_ORDER_TITLE = 'Minimum order not met';

/** A seller's minimum order value not reached: 422, naming the seller, the minimum and what is missing. */
export function belowMinimumOrder(sellerName: string, minimumCents: number, totalCents: number): AppError {
  return new AppError(
    'VALIDATION',
    `The minimum order from ${sellerName} is ${formatMoney(minimumCents)}: add ${formatMoney(minimumCents - totalCents)} more.`,
    { title: MINIMUM_ORDER_TITLE },
  );
}

/**
 * After a guarded decrement matched nothing, one read of the current row tells the buyer why, in
 * the order a buyer fixes things: gone, too few, not for sale, not whole cases, then not enough stock.
 */
async function explainRefusal(tx: Tx, buyer: SessionUser, line: PlacementLine): Promise<never> {
  const [current] = await tx
    .select({ minquantity: products.minquantity, priceCents: products.priceCents, casepack: products.casepack, mainquantity: products.mainquantity, ownerId: products.ownerId })
    .from(products)
    .where(eq(products.id, line.productId));
  if (!current) throw productNotFound();
  if (current.ownerId === buyer.id) throw ownProduct();
  if (line.quantity < current.minquantity) throw belowMoq(current.minquantity);
  if (current.priceCents === null) throw unpriced();
  if (line.quantity % current.casepack !== 0) throw notWholeCases(current.casepack);
  throw outOfStock(current.mainquantity);
}

/**
 * Takes one line's units: every rule is a guard of the one decrement, which locks the row, so a
 * concurrent buyer or a seller's edit waits for it and the guards are re-checked on the row it finds.
 * Stock can never be oversold or go below 0, and the price is computed from the same locked row as
 * the snapshot: the old ladder or the new, never a mix.
 */
async function takeLine(tx: Tx, buyer: SessionUser, line: PlacementLine) {
  const [taken] = await tx
    .update(products)
    .set({ mainquantity: sql`${products.mainquantity} - ${line.quantity}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(products.id, line.productId),
        gte(products.mainquantity, line.quantity),
        lte(products.minquantity, line.quantity),
        isNotNull(products.priceCents),
        sql`${line.quantity}::integer % ${products.casepack} = 0`,
        // A seller cannot buy their own product.
        or(isNull(products.ownerId), ne(products.ownerId, buyer.id)),
      ),
    )
    .returning({
      name: products.name,
      image: products.image,
      brandname: products.brandname,
      category: products.category,
      minquantity: products.minquantity,
      priceCents: products.priceCents,
      discount: products.discount,
      priceBreaks: products.priceBreaks,
      ownerId: products.ownerId,
      ownerEmail: products.ownerEmail,
      sku: products.sku,
    });
  if (!taken) return explainRefusal(tx, buyer, line);
  // The guard above refused a null price; the type cannot know it.
  if (taken.priceCents === null) throw unpriced();
  return { ...taken, priceCents: taken.priceCents };
}

type TakenLine = Awaited<ReturnType<typeof takeLine>> & PlacementLine & { quote: PriceQuote };

async function sellerOf(tx: Tx, first: TakenLine): Promise<{ id: string | null; name: string; minimumOrderCents: number | null }> {
  if (!first.ownerId) return { id: null, name: first.ownerEmail, minimumOrderCents: null };
  const [row] = await tx
    .select({ name: users.name, minimumOrderCents: sellerSettings.minimumOrderCents })
    .from(users)
    .leftJoin(sellerSettings, eq(sellerSettings.userId, users.id))
    .where(eq(users.id, first.ownerId));
  return { id: first.ownerId, name: row?.name ?? first.ownerEmail, minimumOrderCents: row?.minimumOrderCents ?? null };
}

/**
 * Places one order in the caller's transaction, exactly as every order is placed: Buy Now with one
 * line, the checkout once per seller (docs/decisions/017-cart-and-checkout.md). Lines are taken in
 * product-id order, the order every multi-row lock in the app follows, so two purchases sharing
 * products queue instead of deadlocking. Then the seller's minimum order value, the order with its
 * lines, the timeline's first entry and the seller's notification.
 */
export async function placeOrder(tx: Tx, config: Config, placement: Placement): Promise<OrderRow> {
  const { buyer } = placement;
  const sorted = [...placement.lines].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  const taken: TakenLine[] = [];
  for (const line of sorted) {
    const row = await takeLine(tx, buyer, line);
    const quote = quotePrice({ priceCents: row.priceCents, discount: row.discount, tiers: row.priceBreaks }, line.quantity, { breaksApply: placement.breaksApply });
    // The buyer agreed to the price they saw, not to this one: the throw rolls the decrement back.
    if (line.expectedUnitCents !== undefined && line.expectedUnitCents !== quote.unitCents) throw priceChanged(quote.unitCents, line.expectedUnitCents);
    if (!Number.isSafeInteger(quote.totalCents)) throw totalTooLarge();
    taken.push({ ...row, ...line, quote });
  }
  const first = taken[0];
  if (!first) throw new Error('an order needs at least one line');
  const totalCents = taken.reduce((sum, line) => sum + line.quote.totalCents, 0);
  if (!Number.isSafeInteger(totalCents)) throw totalTooLarge();
  const seller = await sellerOf(tx, first);
  if (taken.some((line) => line.ownerId !== first.ownerId)) throw new Error('an order holds one seller’s products');
  if (seller.minimumOrderCents !== null && totalCents < seller.minimumOrderCents) throw belowMinimumOrder(seller.name, seller.minimumOrderCents, totalCents);

  const lines = taken.map((line) => ({
    productId: line.productId,
    quantity: line.quantity,
    unitPriceCents: line.quote.unitCents,
    lineTotalCents: line.quote.totalCents,
    listUnitPriceCents: line.quote.listUnitCents,
    tierMinquantity: line.quote.tierMinquantity,
    productName: line.name,
    productImage: line.image,
    productBrand: line.brandname,
    productCategory: line.category,
    productMinquantity: line.minquantity,
  }));
  // The original one-line columns describe a one-line order and stay empty on a longer one (decision 012).
  const [oneLine] = lines.length === 1 ? lines : [];
  const [row] = await tx
    .insert(orders)
    .values({
      buyerId: buyer.id,
      buyerEmail: buyer.email,
      buyerName: buyer.name,
      sellerId: seller.id,
      sellerName: seller.name,
      totalCents,
      shipTo: placement.shipTo,
      ...oneLine,
      idempotencyKey: placement.idempotencyKey,
      poNumber: placement.poNumber,
      checkoutId: placement.checkoutId,
    })
    .returning();
  if (!row) throw new Error('order insert returned no row');
  await tx.insert(orderLines).values(lines.map((line, i) => ({ orderId: row.id, position: i + 1, ...line, productSku: taken[i]?.sku ?? null })));
  if (placement.saveShipTo) await tx.insert(shipToAddresses).values({ userId: buyer.id, address: placement.shipTo }).onConflictDoNothing();
  await recordEvent(tx, row.id, { kind: 'buyer', user: buyer }, null, 'placed', null);
  await notifyEvent(tx, config, row, 'placed', { kind: 'buyer', user: buyer });
  return row;
}
