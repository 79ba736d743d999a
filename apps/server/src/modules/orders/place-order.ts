import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { formatMoney, quotePrice, type Address, type Order, type PriceQuote, type VerificationStatus } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import { decodeColumns, selectColumns } from '../../db/rows.ts';
import { preparedByShape, runPrepared, slot } from '../../db/prepared.ts';
import { user as users } from '../../db/schema/auth.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { products } from '../../db/schema/catalog.ts';
import { sellerSettings } from '../../db/schema/cart.ts';
import { emailOutbox, notifications, orderEvents, orderLines, orders, shipToAddresses, type OrderRow } from '../../db/schema/orders.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { SessionUser } from '../accounts/session.ts';
import { effectiveStatus } from '../business/buyer-status.ts';
import { notificationRows, type NotificationToWrite } from '../notifications/notify.ts';
import { toOrder, type AnswerLine } from './order-answer.ts';
import { eventNotifications, eventRow } from './order-workflow.ts';
import { belowMoq, notWholeCases, outOfStock, ownProduct, priceChanged, unpriced } from './purchase-rules.ts';

/**
 * How every order is placed, Buy Now's one and the checkout's one per seller
 * (docs/decisions/017-cart-and-checkout.md, docs/decisions/021-purchase-statements.md), in the
 * caller's transaction and in two statements whatever the number of lines: `takeStock` takes the
 * units (every rule a guard of the one decrement) and reads what the order copies, then
 * `writeOrders` writes the orders with their lines, first timeline entries, notifications and e-mails.
 */

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
  /** Buy Now's key; a checkout keeps its key on the checkout row instead. */
  idempotencyKey: string | null;
  poNumber: string | null;
  checkoutId: string | null;
}

/** The destination of a purchase; `saveShipTo` keeps it as the buyer's default unless they have one. */
export interface Destination {
  shipTo: Address;
  saveShipTo: boolean;
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
export async function explainRefusal(tx: Tx, buyer: SessionUser, line: PlacementLine): Promise<never> {
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

/** What an order copies of a product (its snapshot) and what its price is made of, as the decrement left it. */
const takenColumns = {
  id: products.id,
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
};
const sellerColumns = { name: users.name, email: users.email };
const settingsColumns = { minimumOrderCents: sellerSettings.minimumOrderCents };
const buyerColumns = { status: businessProfiles.status, permitExpires: businessProfiles.permitExpires };

export type TakenLine = ReturnType<typeof decodeTaken>;

function decodeTaken(raw: Record<string, unknown>) {
  const product = decodeColumns(takenColumns, raw, 't_');
  const seller = decodeColumns(sellerColumns, raw, 's_');
  const { minimumOrderCents } = decodeColumns(settingsColumns, raw, 'm_');
  return { ...product, seller: { id: product.ownerId, name: product.ownerId ? (seller.name ?? product.ownerEmail) : product.ownerEmail, email: seller.email, minimumOrderCents } };
}

export interface Taken {
  /** One per line taken, in no particular order; fewer than asked means a guard refused (nothing to keep). */
  lines: TakenLine[];
  /** The order numbers reserved for the orders to write, ascending. */
  numbers: string[];
  /** The buyer's business status as this statement read it, when asked for. */
  buyerStatus: VerificationStatus;
}

/**
 * Takes every line's units with one guarded decrement per row, all in one statement: stock can never be
 * oversold or go below 0, a product is never sold below its MOQ, unpriced, in broken cases or to its own
 * seller, and the price comes from the same locked row as the snapshot (the old ladder or the new,
 * never a mix). A concurrent buyer or a seller's edit waits for the row lock and the guards are checked
 * again on the row it finds. The same statement reads each product's seller (name, e-mail, minimum
 * order), reserves `orders` order numbers and, for Buy Now, the buyer's business status.
 *
 * Several lines in one statement lock their rows in no set order, so a caller with several lines must
 * hold those rows' locks already, taken in id order (the checkout does); one line needs nothing.
 */
export async function takeStock(tx: Tx, buyerId: string, lines: readonly PlacementLine[], options: { orders: number; readBuyer?: boolean }): Promise<Taken> {
  const values: Record<string, unknown> = { buyer: buyerId, orders: options.orders };
  lines.forEach((line, i) => {
    values[`p${i}`] = line.productId;
    values[`q${i}`] = line.quantity;
  });
  const statement = prepared(`take:${lines.length}:${options.readBuyer ? 'buyer' : ''}`, () => takeStockSql(lines.length, options.readBuyer === true));
  const rows = await runPrepared(tx, statement, values);
  const first = rows[0] ?? {};
  const profile = options.readBuyer ? decodeColumns(buyerColumns, first, 'b_') : { status: null, permitExpires: null };
  const numbers = typeof first.numbers === 'string' ? first.numbers.split(',') : [];
  return {
    lines: rows.filter((raw) => raw.t_id !== null && raw.t_id !== undefined).map(decodeTaken),
    numbers: numbers.sort((a, b) => Number(a.slice(3)) - Number(b.slice(3))),
    buyerStatus: profile.status ? effectiveStatus(profile.status, profile.permitExpires) : 'none',
  };
}

/** The statements of this module, built once per shape (db/prepared.ts). */
const prepared = preparedByShape();

function takeStockSql(lineCount: number, readBuyer: boolean): SQL {
  const wanted = sql.join(
    Array.from({ length: lineCount }, (_, i) => sql`(${slot(`p${i}`)}::uuid, ${slot(`q${i}`)}::integer)`),
    sql`, `,
  );
  const buyer = readBuyer ? sql`${selectColumns(buyerColumns, 'b_')},` : sql``;
  const buyerJoin = readBuyer ? sql`LEFT JOIN ${businessProfiles} ON ${businessProfiles.userId} = ${slot('buyer')}` : sql``;
  return sql`WITH wanted (product_id, quantity) AS (VALUES ${wanted}),
         taken AS (
           UPDATE ${products} SET mainquantity = ${products.mainquantity} - wanted.quantity, updated_at = now()
             FROM wanted
            WHERE ${products.id} = wanted.product_id
              AND ${products.mainquantity} >= wanted.quantity
              AND ${products.minquantity} <= wanted.quantity
              AND ${products.priceCents} IS NOT NULL
              AND wanted.quantity % ${products.casepack} = 0
              AND (${products.ownerId} IS NULL OR ${products.ownerId} <> ${slot('buyer')})
           RETURNING ${selectColumns(takenColumns, 't_')}
         ),
         numbered AS MATERIALIZED (
           SELECT string_agg('BC-' || nextval('order_number_seq')::text, ',') AS numbers
             FROM generate_series(1, ${slot('orders')}::integer)
            WHERE EXISTS (SELECT 1 FROM taken)
         )
       SELECT numbered.numbers, ${buyer} taken.*, ${selectColumns(sellerColumns, 's_')}, ${selectColumns(settingsColumns, 'm_')}
         FROM numbered
         ${buyerJoin}
         LEFT JOIN taken ON true
         LEFT JOIN ${users} ON ${users.id} = taken."t_ownerId"
         LEFT JOIN ${sellerSettings} ON ${sellerSettings.userId} = taken."t_ownerId"`;
}

/** One order ready to be written: its row, its lines (as the answer reads them too) and who is told. */
export interface OrderDraft {
  order: typeof orders.$inferInsert & { id: string; number: string; totalCents: number };
  lines: Array<typeof orderLines.$inferInsert & AnswerLine>;
  notifications: NotificationToWrite[];
}

/**
 * One seller's order from its taken lines: each line priced as the locked row says (the volume break the
 * quantity reaches, then the discount), the price the buyer agreed to, the seller's minimum order value.
 * A refusal here throws, and the caller's transaction gives the units back.
 */
export function draftOrder(placement: Placement, taken: readonly TakenLine[], number: string, destination: Destination): OrderDraft {
  const { buyer } = placement;
  const byId = new Map(taken.map((row) => [row.id, row]));
  // Lines keep product-id order, as they always have (the order every multi-row lock follows).
  const sorted = [...placement.lines].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  const priced = sorted.map((line) => {
    const row = byId.get(line.productId.toLowerCase());
    if (!row || row.priceCents === null) throw new Error(`line ${line.productId} was not taken`);
    const quote: PriceQuote = quotePrice({ priceCents: row.priceCents, discount: row.discount, tiers: row.priceBreaks }, line.quantity, { breaksApply: placement.breaksApply });
    // The buyer agreed to the price they saw, not to this one: the throw rolls the decrement back.
    if (line.expectedUnitCents !== undefined && line.expectedUnitCents !== quote.unitCents) throw priceChanged(quote.unitCents, line.expectedUnitCents);
    if (!Number.isSafeInteger(quote.totalCents)) throw totalTooLarge();
    return { row, line, quote };
  });
  const first = priced[0];
  if (!first) throw new Error('an order needs at least one line');
  if (priced.some(({ row }) => row.ownerId !== first.row.ownerId)) throw new Error('an order holds one seller’s products');
  const seller = first.row.seller;
  const totalCents = priced.reduce((sum, { quote }) => sum + quote.totalCents, 0);
  if (!Number.isSafeInteger(totalCents)) throw totalTooLarge();
  if (seller.minimumOrderCents !== null && totalCents < seller.minimumOrderCents) throw belowMinimumOrder(seller.name, seller.minimumOrderCents, totalCents);

  const id = randomUUID();
  const lines = priced.map(({ row, line, quote }, i) => ({
    orderId: id,
    position: i + 1,
    productId: line.productId,
    quantity: line.quantity,
    unitPriceCents: quote.unitCents,
    lineTotalCents: quote.totalCents,
    listUnitPriceCents: quote.listUnitCents,
    tierMinquantity: quote.tierMinquantity,
    productName: row.name,
    productImage: row.image,
    productBrand: row.brandname,
    productCategory: row.category,
    productMinquantity: row.minquantity,
    productSku: row.sku,
  }));
  // The original one-line columns describe a one-line order and stay empty on a longer one (decision 012).
  const [oneLine] = lines.length === 1 ? lines : [];
  const order = {
    id,
    number,
    buyerId: buyer.id,
    buyerEmail: buyer.email,
    buyerName: buyer.name,
    sellerId: seller.id,
    sellerName: seller.name,
    totalCents,
    shipTo: destination.shipTo,
    ...(oneLine
      ? {
          productId: oneLine.productId,
          quantity: oneLine.quantity,
          unitPriceCents: oneLine.unitPriceCents,
          lineTotalCents: oneLine.lineTotalCents,
          listUnitPriceCents: oneLine.listUnitPriceCents,
          tierMinquantity: oneLine.tierMinquantity,
          productName: oneLine.productName,
          productImage: oneLine.productImage,
          productBrand: oneLine.productBrand,
          productCategory: oneLine.productCategory,
          productMinquantity: oneLine.productMinquantity,
        }
      : {}),
    idempotencyKey: placement.idempotencyKey,
    poNumber: placement.poNumber,
    checkoutId: placement.checkoutId,
  };
  const told = { ...order, status: 'placed' as const, shipBy: null, carrier: null, tracking: null, reason: null };
  return { order, lines, notifications: eventNotifications(told, 'placed', { kind: 'buyer', user: buyer }, seller.email) };
}

/**
 * A data-modifying statement written with the orders, in the same statement: its values filled per call,
 * its SQL (with `slot(name)` where those values go) built once per `shape`.
 */
export interface AlsoStatement {
  shape: string;
  values: Record<string, unknown>;
  build: () => SQL;
}

/** What else the orders' statement writes: the buyer's default address, more notifications, other changes. */
export interface AlsoWritten {
  destination: Destination;
  notifications?: NotificationToWrite[];
  /** Further data-modifying statements of the same purchase (the checkout empties the cart). */
  statements?: AlsoStatement[];
}

export interface PlacedOrder {
  row: OrderRow;
  /** The order as the API answers it, from what was written (nothing is read back). */
  answer(now: Date): Order;
}

/**
 * An insert of `rows` into `table` as a prepared part: each defined value goes to the placeholder
 * `${tag}${row}_${key}` (filled through the column's encoder), and the shape says which keys each row has.
 */
function slottedInsert(tx: Tx, tag: string, table: PgTable, rows: ReadonlyArray<Record<string, unknown>>, values: Record<string, unknown>, onConflictDoNothing = false): AlsoStatement {
  const keysOf = rows.map((row) => Object.keys(row).filter((key) => row[key] !== undefined));
  keysOf.forEach((keys, i) => {
    for (const key of keys) values[`${tag}${i}_${key}`] = rows[i]?.[key];
  });
  return {
    shape: `${tag}[${keysOf.map((keys) => keys.join(',')).join('|')}]${onConflictDoNothing ? '!' : ''}`,
    values,
    build() {
      const slotted = keysOf.map((keys, i) => Object.fromEntries(keys.map((key) => [key, slot(`${tag}${i}_${key}`)])));
      const insert = tx.insert(table).values(slotted as never);
      return onConflictDoNothing ? insert.onConflictDoNothing().getSQL() : insert.getSQL();
    },
  };
}

const orderColumns = getTableColumns(orders);

/**
 * Writes the drafted orders and everything that exists exactly when they do, in one statement: their
 * lines, each order's first timeline entry ("placed", by the buyer), the notifications and their e-mails
 * in the outbox, the buyer's default address when they had none. Foreign keys between these rows are
 * checked at the end of the statement, once all of them exist.
 */
export async function writeOrders(tx: Tx, config: Config, buyer: SessionUser, drafts: readonly OrderDraft[], also: AlsoWritten): Promise<PlacedOrder[]> {
  const actor = { kind: 'buyer' as const, user: buyer };
  const told = notificationRows(config, [...drafts.flatMap((d) => d.notifications), ...(also.notifications ?? [])]);
  const values: Record<string, unknown> = {};
  const parts: AlsoStatement[] = [
    slottedInsert(tx, 'l', orderLines, drafts.flatMap((d) => d.lines), values),
    slottedInsert(tx, 'e', orderEvents, drafts.map((d) => eventRow(d.order.id, actor, null, 'placed', null)), values),
    ...(told.notifications.length > 0 ? [slottedInsert(tx, 'n', notifications, told.notifications, values)] : []),
    ...(told.emails.length > 0 ? [slottedInsert(tx, 'm', emailOutbox, told.emails, values)] : []),
    ...(also.destination.saveShipTo ? [slottedInsert(tx, 's', shipToAddresses, [{ userId: buyer.id, address: also.destination.shipTo }], values, true)] : []),
    ...(also.statements ?? []),
  ];
  const main = slottedInsert(tx, 'o', orders, drafts.map((d) => d.order), values);
  for (const part of also.statements ?? []) Object.assign(values, part.values);
  const statement = prepared([...parts, main].map((part) => part.shape).join(';'), () => {
    const ctes = parts.map((part, i) => sql`${sql.identifier(`written_${i}`)} AS (${part.build()})`);
    return sql`WITH ${sql.join(ctes, sql`, `)} ${main.build()} RETURNING ${selectColumns(orderColumns, 'o_')}`;
  });
  const rows = (await runPrepared(tx, statement, values)).map((raw) => decodeColumns(orderColumns, raw, 'o_') as OrderRow);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return drafts.map((draft) => {
    const row = byId.get(draft.order.id);
    if (!row) throw new Error('order insert returned no row');
    // The timeline's entry was written in this transaction, whose now() is also the order's created_at.
    const placed = { ...eventRow(row.id, actor, null, 'placed', null), createdAt: row.createdAt };
    return { row, answer: (now: Date) => toOrder(row, draft.lines, [placed], now) };
  });
}
