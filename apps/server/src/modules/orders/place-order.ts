import { randomUUID } from 'node:crypto';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { formatMoney, MESSAGES, quotePrice, VERIFY_TEXT, type Address, type Order, type PriceQuote, type VerificationMode } from '@bulkcart/contracts';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { decodeColumns, selectColumns } from '../../db/rows.ts';
import { orderIdInShard, rollupShardOf } from '../../db/rollup-shard.ts';
import { preparedByShape, runPrepared, slot } from '../../db/prepared.ts';
import { user as users } from '../../db/schema/auth.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { isListed, products } from '../../db/schema/catalog.ts';
import { sellerSettings } from '../../db/schema/cart.ts';
import { orderEvents, orderLines, orders, shipToAddresses, type OrderRow } from '../../db/schema/orders.ts';
import { emailOutbox, notifications } from '../../db/schema/notifications.ts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import { createRowBatcher } from '../../lib/row-batcher.ts';
import type { SessionUser } from '../accounts/session.ts';
import { pricingOf, profileStatusColumns, statusOfProfile } from '../business/index.ts';
import { notificationRows, type NotificationToWrite } from '../notifications/index.ts';
import { toOrder, type AnswerLine } from './order-answer.ts';
import { eventNotifications, eventRow } from './order-workflow.ts';
import { belowMoq, notWholeCases, outOfStock, ownProduct, priceChanged, unpriced } from './purchase-rules.ts';
import { buyNowMemoFor, type BuyerProfile } from './buy-now-memo.ts';
import { arrayInsert, columnArray, unnested, type AlsoStatement } from './array-insert.ts';

/**
 * How every order is placed, Buy Now's one and the checkout's one per seller
 * (docs/decisions/017-cart-and-checkout.md, docs/decisions/022-purchase-statements.md), each priced and
 * drafted by `draftOrder` and written by `writeOrders` with its lines, first timeline entry,
 * notifications and e-mails (the checkout's) or by `writeBuyNowBatch` (Buy Now's). Buy Now (`buyNow`)
 * reads, then takes and writes in one statement, shared with the purchases of the same product that
 * wait for it (decision 034); the checkout, in its transaction, locks and reads its products
 * (`lockProductsForPlacement`), then writes its orders and takes their stock in one statement
 * (`writeOrders` with `takeLockedStock`).
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

/** Code-unit order of ids: the one fixed order every writer takes its row locks in. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

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

/** What the refusal of a line reads of its product. */
export interface ProductRules {
  minquantity: number;
  priceCents: number | null;
  casepack: number;
  mainquantity: number;
  ownerId: string | null;
}

/**
 * Why this product cannot be sold to this buyer in this quantity, in the order a buyer fixes things:
 * gone, their own, too few, not for sale, not whole cases, then not enough stock; null when it can.
 */
export function refusalOf(current: ProductRules | null, buyer: SessionUser, line: PlacementLine): AppError | null {
  if (!current) return productNotFound();
  if (current.ownerId === buyer.id) return ownProduct();
  if (line.quantity < current.minquantity) return belowMoq(current.minquantity);
  if (current.priceCents === null) return unpriced();
  if (line.quantity % current.casepack !== 0) return notWholeCases(current.casepack);
  if (line.quantity > current.mainquantity) return outOfStock(current.mainquantity);
  return null;
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
/** What Buy Now reads of its product besides what the order copies: the rules' columns. */
const readColumns = { ...takenColumns, mainquantity: products.mainquantity, casepack: products.casepack };

export type TakenLine = ReturnType<typeof decodeTaken>;

function decodeTaken(raw: Record<string, unknown>) {
  const product = decodeColumns(takenColumns, raw, 't_');
  const seller = decodeColumns(sellerColumns, raw, 's_');
  const { minimumOrderCents } = decodeColumns(settingsColumns, raw, 'm_');
  return {
    ...product,
    seller: { id: product.ownerId, name: product.ownerId ? (seller.name ?? product.ownerEmail) : product.ownerEmail, email: seller.email, minimumOrderCents },
  };
}

/** A product as a purchase reads it: what its order copies, the rules' columns, and its seller. */
type ReadProduct = TakenLine & { mainquantity: number; casepack: number };

/** A row selected with readColumns (`t_`), sellerColumns (`s_`) and settingsColumns (`m_`). */
function decodeRead(raw: Record<string, unknown>): { product: ReadProduct; seller: SellerAsStored } {
  const seller = decodeColumns(sellerColumns, raw, 's_');
  const rules = decodeColumns({ mainquantity: products.mainquantity, casepack: products.casepack }, raw, 't_');
  return {
    product: { ...decodeTaken(raw), mainquantity: rules.mainquantity ?? 0, casepack: rules.casepack ?? 1 },
    seller: { name: seller.name ?? null, email: seller.email ?? null },
  };
}

/** The statements of this module, built once per shape (db/prepared.ts). */
const prepared = preparedByShape();

/**
 * A product the checkout locked, with its seller's account name as stored (null: no account) and
 * minimum order: the shape the cart's indexBuyable takes.
 */
export type LockedProduct = ReadProduct & { sellerName: string | null; minimumOrderCents: number | null };

/**
 * The checkout's one read of its products: the listed ones among `ids` (an unlisted or deleted one is
 * absent) with their sellers, each row locked (FOR UPDATE OF, in id order, the order every multi-row
 * lock follows). What it prices, checks, copies into its orders and takes the stock of
 * (takeLockedStock) is then one state that nothing else can change before its transaction ends.
 */
export async function lockProductsForPlacement(tx: Tx, ids: readonly string[]): Promise<LockedProduct[]> {
  if (ids.length === 0) return [];
  const statement = prepared(
    'lock-for-placement',
    () => sql`SELECT ${selectColumns(readColumns, 't_')}, ${selectColumns(sellerColumns, 's_')}, ${selectColumns(settingsColumns, 'm_')}
      FROM ${products}
      LEFT JOIN ${users} ON ${users.id} = ${products.ownerId}
      LEFT JOIN ${sellerSettings} ON ${sellerSettings.userId} = ${products.ownerId}
     WHERE ${products.id} = ANY(${slot('ids')}::uuid[]) AND ${isListed}
     ORDER BY ${products.id} ASC
       FOR UPDATE OF ${products}`,
  );
  return (await runPrepared(tx, statement, { ids: [...new Set(ids)] })).map((raw) => {
    const { product, seller } = decodeRead(raw);
    return { ...product, sellerName: seller.name, minimumOrderCents: product.seller.minimumOrderCents };
  });
}

/**
 * Takes every line's units, in the orders' statement (writeOrders): rows the caller locked and checked
 * in this transaction (lockProductsForPlacement), so no guard can refuse a line here, and the stock's
 * check constraint (never below 0) fails the whole statement if one ever did. The lines travel as two
 * arrays: one statement shape for every cart.
 */
export function takeLockedStock(lines: readonly PlacementLine[]): AlsoStatement {
  return {
    shape: 'stock',
    values: { stock_ids: lines.map((line) => line.productId), stock_quantities: lines.map((line) => line.quantity) },
    build: () =>
      sql`UPDATE ${products} SET mainquantity = ${products.mainquantity} - w.quantity, updated_at = now()
            FROM ${unnested('w', [
              { name: 'id', slot: 'stock_ids', type: 'uuid' },
              { name: 'quantity', slot: 'stock_quantities', type: 'integer' },
            ])}
           WHERE ${products.id} = w.id`,
  };
}

/** Order numbers for the orders about to be written. */
export interface OrderNumbers {
  /** Ascending. */
  numbers: string[];
  /** Back to the memory: the orders that were to take them were not written. */
  giveBack(): void;
  /** Numbers the orders' statement reserved for later purchases. */
  keep(reserved: readonly string[]): void;
}

/**
 * `count` order numbers: those this process holds reserved first (buy-now-memo.ts: each order written
 * reserves one for a later purchase), the rest reserved now, in a statement of their own, which a
 * process with enough of them in hand never needs.
 */
export async function reserveOrderNumbers(db: Db, tx: Tx, count: number): Promise<OrderNumbers> {
  const memo = buyNowMemoFor<RememberedProduct>(db);
  const numbers: string[] = [];
  while (numbers.length < count) {
    const number = memo.takeNumber();
    if (number === undefined) break;
    numbers.push(number);
  }
  if (numbers.length < count) {
    const statement = prepared(
      'reserve-numbers',
      () => sql`SELECT 'BC-' || nextval('order_number_seq')::text AS number FROM generate_series(1, ${slot('count')}::integer)`,
    );
    for (const raw of await runPrepared(tx, statement, { count: count - numbers.length })) numbers.push(String(raw.number));
  }
  return {
    numbers: numbers.sort((a, b) => Number(a.slice(3)) - Number(b.slice(3))),
    giveBack: () => numbers.forEach((number) => memo.keepNumber(number)),
    keep: (reserved) => reserved.forEach((number) => memo.keepNumber(number)),
  };
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
 * A refusal here throws, and the caller's transaction gives the units back. `id`: the new order's id (random unless given).
 */
export function draftOrder(placement: Placement, taken: readonly TakenLine[], number: string, destination: Destination, id: string = randomUUID()): OrderDraft {
  const { buyer } = placement;
  const byId = new Map(taken.map((row) => [row.id, row]));
  // Lines keep product-id order, as they always have (the order every multi-row lock follows).
  const sorted = [...placement.lines].sort((a, b) => compareText(a.productId, b.productId));
  const priced = sorted.map((line) => {
    const row = byId.get(line.productId.toLowerCase());
    if (!row || row.priceCents === null) throw new Error(`line ${line.productId} was not taken`);
    const quote: PriceQuote = quotePrice({ priceCents: row.priceCents, discount: row.discount, tiers: row.priceBreaks }, line.quantity, {
      breaksApply: placement.breaksApply,
    });
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

/** What else the orders' statement writes: the buyer's default address, more notifications, other changes. */
export interface AlsoWritten {
  destination: Destination;
  /** Where the orders' numbers came from; each order written reserves one more, kept there for later. */
  numbers: OrderNumbers;
  notifications?: NotificationToWrite[];
  /** Further data-modifying statements of the same purchase (the checkout empties the cart). */
  statements?: AlsoStatement[];
}

export interface PlacedOrder {
  row: OrderRow;
  /** The order as the API answers it, from what was written (nothing is read back). */
  answer(now: Date): Order;
  /** Buy Now's: an order number the statement reserved for a later purchase. */
  nextNumber?: string;
}

/** `$n::type`: a placeholder typed as its column, for a SELECT list, where PostgreSQL cannot infer it. */
function typedSlot(name: string, column: PgColumn): SQL {
  return sql`${sql.param(slot(name), column)}::${sql.raw(column.getSQLType())}`;
}

const orderColumns = getTableColumns(orders);

/** One drafted order and the buyer who placed it (its first timeline entry's actor). */
interface OrderToWrite {
  draft: OrderDraft;
  buyer: SessionUser;
}

/** Rows to insert into one table, each with the index of the order (of the statement's orders) it belongs to. */
interface OwnedRows {
  rows: Array<Record<string, unknown>>;
  owners: number[];
}

/**
 * The rows that exist exactly when their orders do: the orders, their lines, each order's first timeline
 * entry ("placed", by its buyer), the notifications and their e-mails in the outbox.
 */
function rowsOfOrders(config: Config, written: readonly OrderToWrite[]) {
  const table = (): OwnedRows => ({ rows: [], owners: [] });
  const rows = { orders: table(), lines: table(), events: table(), notifications: table(), emails: table() };
  const add = (into: OwnedRows, added: ReadonlyArray<Record<string, unknown>>, owner: number) => {
    for (const row of added) {
      into.rows.push(row);
      into.owners.push(owner);
    }
  };
  written.forEach(({ draft, buyer }, owner) => {
    add(rows.orders, [draft.order], owner);
    add(rows.lines, draft.lines, owner);
    add(rows.events, [eventRow(draft.order.id, { kind: 'buyer', user: buyer }, null, 'placed', null)], owner);
    const told = notificationRows(config, draft.notifications);
    add(rows.notifications, told.notifications, owner);
    add(rows.emails, told.emails, owner);
  });
  return rows;
}

/** Each written order's row, matched to its draft, and its answer (nothing is read back). */
function placedFrom(written: readonly OrderToWrite[], raws: ReadonlyArray<Record<string, unknown>>): Array<PlacedOrder | undefined> {
  const byId = new Map(
    raws.map((raw) => {
      const row = decodeColumns(orderColumns, raw, 'o_') as OrderRow;
      return [row.id, { row, nextNumber: typeof raw.next_number === 'string' ? raw.next_number : undefined }];
    }),
  );
  return written.map(({ draft, buyer }) => {
    const found = byId.get(draft.order.id);
    if (!found) return undefined;
    const { row, nextNumber } = found;
    // The timeline's entry was written in this transaction, whose now() is also the order's created_at.
    const placed = { ...eventRow(row.id, { kind: 'buyer', user: buyer }, null, 'placed', null), createdAt: row.createdAt };
    return { row, answer: (now: Date) => toOrder(row, draft.lines, [placed], now), ...(nextNumber ? { nextNumber } : {}) };
  });
}

/**
 * Writes the drafted orders of one checkout and everything that exists exactly when they do, in one
 * statement: their lines, each order's first timeline entry, the notifications and their e-mails in the
 * outbox, the buyer's default address when they had none, and the checkout's other changes. Foreign
 * keys between these rows are checked at the end of the statement, once all of them exist.
 */
export async function writeOrders(tx: Tx, config: Config, buyer: SessionUser, drafts: readonly OrderDraft[], also: AlsoWritten): Promise<PlacedOrder[]> {
  // The orders and their lines go in seller order: the dashboard rollup's triggers (migration 0019) lock
  // one row per seller and day as they go, and two checkouts with the same sellers must take them in
  // the same order, or each could wait for the other.
  const bySeller = drafts.length > 1 ? [...drafts].sort((a, b) => compareText(a.order.sellerId ?? '', b.order.sellerId ?? '')) : drafts;
  const written = bySeller.map((draft) => ({ draft, buyer }));
  const rows = rowsOfOrders(config, written);
  const told = notificationRows(config, also.notifications ?? []);
  const values: Record<string, unknown> = {};
  const insert = (tag: string, table: PgTable, inserted: ReadonlyArray<Record<string, unknown>>, onConflictDoNothing = false) =>
    arrayInsert(tag, table, inserted, values, { onConflictDoNothing });
  const notified = [...rows.notifications.rows, ...told.notifications];
  const emailed = [...rows.emails.rows, ...told.emails];
  const parts: AlsoStatement[] = [
    insert('l', orderLines, rows.lines.rows),
    insert('e', orderEvents, rows.events.rows),
    ...(notified.length > 0 ? [insert('n', notifications, notified)] : []),
    ...(emailed.length > 0 ? [insert('m', emailOutbox, emailed)] : []),
    ...(also.destination.saveShipTo ? [insert('s', shipToAddresses, [{ userId: buyer.id, address: also.destination.shipTo }], true)] : []),
    ...(also.statements ?? []),
  ];
  const main = insert('o', orders, rows.orders.rows);
  for (const part of also.statements ?? []) Object.assign(values, part.values);
  const statement = prepared([...parts, main].map((part) => part.shape).join(';'), () => {
    const ctes = parts.map((part, i) => sql`${sql.identifier(`written_${i}`)} AS (${part.build()})`);
    // Evaluated once per order written, as Buy Now's statement does.
    return sql`WITH ${sql.join(ctes, sql`, `)} ${main.build()}
      RETURNING ${selectColumns(orderColumns, 'o_')}, 'BC-' || nextval('order_number_seq')::text AS next_number`;
  });
  const placed = placedFrom(written, await runPrepared(tx, statement, values));
  also.numbers.keep(placed.flatMap((order) => (order?.nextNumber ? [order.nextNumber] : [])));
  // Answered in the drafts' order (the checkout's, by order number), not the writing order.
  const byDraft = new Map(written.map(({ draft }, i) => [draft, placed[i]]));
  return drafts.map((draft) => {
    const order = byDraft.get(draft);
    if (!order) throw new Error('order insert returned no row');
    return order;
  });
}

/**
 * Refusals decided on a read that found no order of the buyer's under the purchase's key, in the same
 * snapshot as everything the refusal was decided on: there is no earlier order to answer instead, so
 * the caller need not look for one (orders.service.ts createOrder), a round trip saved on every refusal
 * of a sold-out product. A repeat whose first order commits after that snapshot is a race the lookup
 * had too, a moment later.
 */
const refusedWithKeyUnused = new WeakSet<AppError>();

function refused(error: AppError, keyUnused: boolean): AppError {
  if (keyUnused) refusedWithKeyUnused.add(error);
  return error;
}

/** A Buy Now refusal decided on a read that showed the purchase's key unused (see refusedWithKeyUnused). */
export function isRefusalWithKeyUnused(error: unknown): boolean {
  return error instanceof AppError && refusedWithKeyUnused.has(error);
}

/** How often Buy Now reads again when its product changed between its read and its write. */
const BUY_NOW_ATTEMPTS = 3;

type BuyNowProduct = ReadProduct;

/** The seller's columns as stored (the order's seller name falls back to the product's address). */
interface SellerAsStored {
  name: string | null;
  email: string | null;
}

/** What a purchase without its read remembers of a product (buy-now-memo.ts). */
interface RememberedProduct {
  product: BuyNowProduct;
  seller: SellerAsStored;
}

/**
 * What Buy Now read: the product (null when gone or unlisted) with its seller, the buyer's profile, a
 * reserved number, and whether the buyer already has an order under the purchase's key.
 */
interface BuyNowRead {
  product: BuyNowProduct | null;
  seller: SellerAsStored;
  profile: BuyerProfile;
  number: string;
  keyTaken: boolean;
}

async function readForBuyNow(db: Db, buyerId: string, productId: string, key: string | null): Promise<BuyNowRead> {
  const statement = prepared(
    'buy-now-read',
    () => sql`
    SELECT 'BC-' || nextval('order_number_seq')::text AS number,
           EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.buyerId} = ${slot('buyer')} AND ${orders.idempotencyKey} = ${slot('key')}::text) AS key_taken,
           ${selectColumns(profileStatusColumns, 'b_')}, ${selectColumns(readColumns, 't_')},
           ${selectColumns(sellerColumns, 's_')}, ${selectColumns(settingsColumns, 'm_')}
      FROM (SELECT 1) AS one
      LEFT JOIN ${businessProfiles} ON ${businessProfiles.userId} = ${slot('buyer')}
      LEFT JOIN ${products} ON ${products.id} = ${slot('product')}::uuid AND ${isListed}
      LEFT JOIN ${users} ON ${users.id} = ${products.ownerId}
      LEFT JOIN ${sellerSettings} ON ${sellerSettings.userId} = ${products.ownerId}`,
  );
  const [raw = {}] = await runPrepared(db, statement, { buyer: buyerId, product: productId, key });
  const profile = decodeColumns(profileStatusColumns, raw, 'b_');
  const { product, seller } = decodeRead(raw);
  const read: BuyNowRead = {
    product: raw.t_id === null || raw.t_id === undefined ? null : product,
    seller,
    profile: { status: profile.status ?? null, permitExpires: profile.permitExpires ?? null },
    number: String(raw.number),
    keyTaken: raw.key_taken === true,
  };
  const memo = buyNowMemoFor<RememberedProduct>(db);
  memo.rememberProduct(productId.toLowerCase(), read.product && { product: read.product, seller: read.seller });
  memo.rememberBuyer(buyerId, read.profile);
  return read;
}

/**
 * The columns a Buy Now purchase was priced and written from, besides its id, seller and SKU: its
 * statement takes the stock only if the row still holds every one as read.
 */
const guardedColumns = {
  minquantity: products.minquantity,
  casepack: products.casepack,
  priceCents: products.priceCents,
  discount: products.discount,
  priceBreaks: products.priceBreaks,
  ownerEmail: products.ownerEmail,
  name: products.name,
  image: products.image,
  brandname: products.brandname,
  category: products.category,
} as const;

/** One Buy Now purchase decided and drafted, waiting to be written with others of its product. */
interface BuyNowWrite {
  db: Db;
  config: Config;
  buyer: SessionUser;
  draft: OrderDraft;
  destination: Destination;
  product: BuyNowProduct;
  seller: SellerAsStored;
  /** From memory: the buyer's profile it was decided on, which the statement proves still holds. */
  rememberedProfile: BuyerProfile | null;
  /** Every value the guards compare the row against: purchases with the same one can share a statement. */
  guardKey: string;
}

function guardKeyOf(product: BuyNowProduct, seller: SellerAsStored): string {
  const guarded = (Object.keys(guardedColumns) as Array<keyof typeof guardedColumns>).map((key) => product[key]);
  return JSON.stringify([product.id, product.ownerId, product.sku, ...guarded, seller.name, seller.email, product.seller.minimumOrderCents]);
}

/** The values of a batch's head (buyNowHead): the product's as read, and one array per purchase's value. */
function fillHeadValues(purchases: readonly BuyNowWrite[], values: Record<string, unknown>): void {
  const [first] = purchases;
  if (!first) throw new Error('a batch needs a purchase');
  const { product, seller } = first;
  Object.assign(values, {
    g_id: product.id,
    g_ownerId: product.ownerId,
    g_sku: product.sku,
    g_sellerName: seller.name,
    g_sellerEmail: seller.email,
    g_minimumOrderCents: product.seller.minimumOrderCents,
  });
  for (const key of Object.keys(guardedColumns) as Array<keyof typeof guardedColumns>) values[`g_${key}`] = product[key];
  Object.assign(values, {
    w_quantity: purchases.map((purchase) => purchase.draft.lines[0]?.quantity),
    w_save: purchases.map((purchase) => purchase.destination.saveShipTo),
    w_proved: purchases.map((purchase) => purchase.rememberedProfile !== null),
    w_buyer: purchases.map((purchase) => purchase.buyer.id),
    w_status: columnArray(
      businessProfiles.status,
      purchases.map((purchase) => purchase.rememberedProfile?.status),
    ),
    w_permit: columnArray(
      businessProfiles.permitExpires,
      purchases.map((purchase) => purchase.rememberedProfile?.permitExpires),
    ),
  });
}

/**
 * The head of a Buy Now batch's statement: which purchases it takes the stock for. Every value read is
 * guarded: the row must still hold the price, discount, volume breaks, case pack, MOQ, seller, SKU and
 * snapshot the purchases were priced and written from, be listed still, and its seller's name, address
 * and minimum order must be as read; a purchase decided from memory proves its buyer's profile too (a
 * purchase whose proof fails is left out). The row is locked, then the purchases are taken in arrival
 * order while the stock lasts (the first that does not fit and those after it are left out). Other
 * buyers' orders change only the stock, so they never make a guard miss; a seller's edit in between
 * does, and the purchases read again. The purchases come as arrays (one per value, in arrival order):
 * one shape for every batch size.
 */
function buyNowHead(): SQL {
  const profileOf = (column: PgColumn) => sql`(SELECT ${column} FROM ${businessProfiles} WHERE ${businessProfiles.userId} = w.buyer)`;
  const arrays = [
    { name: 'quantity', slot: 'w_quantity', type: 'integer' },
    { name: 'save', slot: 'w_save', type: 'boolean' },
    { name: 'proved', slot: 'w_proved', type: 'boolean' },
    { name: 'buyer', slot: 'w_buyer', type: 'text' },
    { name: 'status', slot: 'w_status', type: businessProfiles.status.getSQLType() },
    { name: 'permit', slot: 'w_permit', type: businessProfiles.permitExpires.getSQLType() },
  ];
  const wanted = sql`SELECT (w.n - 1)::integer AS ord, w.quantity, w.save FROM ${unnested('w', arrays)}
       WHERE NOT w.proved
          OR (${profileOf(businessProfiles.status)} IS NOT DISTINCT FROM w.status
              AND ${profileOf(businessProfiles.permitExpires)} IS NOT DISTINCT FROM w.permit)`;
  const guards = (Object.entries(guardedColumns) as Array<[string, PgColumn]>).map(([key, column]) => sql`${column} = ${typedSlot(`g_${key}`, column)}`);
  return sql`wanted AS MATERIALIZED (${wanted}),
    ahead AS MATERIALIZED (SELECT ord, save, sum(quantity) OVER (ORDER BY ord) AS upto FROM wanted),
    locked AS MATERIALIZED (
      SELECT ${products.mainquantity} FROM ${products}
       WHERE ${products.id} = ${slot('g_id')}::uuid
         AND ${isListed}
         AND ${products.ownerId} IS NOT DISTINCT FROM ${slot('g_ownerId')}::text
         AND ${products.sku} IS NOT DISTINCT FROM ${slot('g_sku')}::text
         AND ${sql.join(guards, sql` AND `)}
         AND (SELECT ${users.name} FROM ${users} WHERE ${users.id} = ${products.ownerId}) IS NOT DISTINCT FROM ${typedSlot('g_sellerName', users.name)}
         AND (SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${products.ownerId}) IS NOT DISTINCT FROM ${typedSlot('g_sellerEmail', users.email)}
         AND (SELECT ${sellerSettings.minimumOrderCents} FROM ${sellerSettings} WHERE ${sellerSettings.userId} = ${products.ownerId})
             IS NOT DISTINCT FROM ${typedSlot('g_minimumOrderCents', sellerSettings.minimumOrderCents)}
       FOR UPDATE
    ),
    accepted AS MATERIALIZED (SELECT ahead.ord, ahead.save, ahead.upto FROM ahead, locked WHERE ahead.upto <= locked.mainquantity),
    -- The stock is checked again on the row the update finds: the statement never takes more than that
    -- row holds, whatever the lock step read (the crash test, killing servers mid-statement, met the
    -- stock's check constraint 2–4 times a run without this: nothing oversold, those purchases got 500).
    taken AS (
      UPDATE ${products}
         SET mainquantity = ${products.mainquantity} - (SELECT max(accepted.upto) FROM accepted), updated_at = now()
       WHERE ${products.id} = ${slot('g_id')}::uuid AND ${products.mainquantity} >= (SELECT max(accepted.upto) FROM accepted)
      RETURNING ${products.id}
    )`;
}

/**
 * Writes a batch of Buy Now purchases of one product in one statement (buyNowHead, then every taken
 * purchase's order with its lines, first timeline entry, notifications, e-mails and default address):
 * all of a purchase or none of it. Each purchase gets its order, or undefined when it was left out. Each
 * order written reserves an order number for a later purchase (`nextNumber`).
 */
async function writeBuyNowBatch(purchases: readonly BuyNowWrite[]): Promise<Array<PlacedOrder | undefined>> {
  const [first] = purchases;
  if (!first) return [];
  const { db, config } = first;
  const rows = rowsOfOrders(config, purchases);
  const values: Record<string, unknown> = {};
  fillHeadValues(purchases, values);
  const insert = (tag: string, table: PgTable, owned: OwnedRows, options: { onConflictDoNothing?: boolean; onlyIfSaving?: boolean } = {}) =>
    arrayInsert(tag, table, owned.rows, values, { ...options, owners: owned.owners });
  const shipTo: OwnedRows = {
    rows: purchases.map(({ buyer, destination }) => ({ userId: buyer.id, address: destination.shipTo })),
    owners: purchases.map((_, i) => i),
  };
  const parts: AlsoStatement[] = [
    insert('l', orderLines, rows.lines),
    insert('e', orderEvents, rows.events),
    ...(rows.notifications.rows.length > 0 ? [insert('n', notifications, rows.notifications)] : []),
    ...(rows.emails.rows.length > 0 ? [insert('m', emailOutbox, rows.emails)] : []),
    insert('s', shipToAddresses, shipTo, { onConflictDoNothing: true, onlyIfSaving: true }),
  ];
  const main = insert('o', orders, rows.orders);
  const statement = prepared(`buy-now:${[...parts, main].map((part) => part.shape).join(';')}`, () => {
    const ctes = parts.map((part, i) => sql`${sql.identifier(`written_${i}`)} AS (${part.build()})`);
    // Evaluated once per order written, so a statement that writes nothing reserves nothing.
    return sql`WITH ${buyNowHead()}, ${sql.join(ctes, sql`, `)} ${main.build()}
      RETURNING ${selectColumns(orderColumns, 'o_')}, 'BC-' || nextval('order_number_seq')::text AS next_number`;
  });
  return placedFrom(purchases, await runPrepared(db, statement, values));
}

/**
 * Buy Now purchases of one product written together, at most this many per statement (lib/row-batcher.ts,
 * docs/decisions/034-buy-now-batches.md): purchases that arrive while their product's statement runs
 * wait in the process, holding no connection, and the next statement takes them all. This bounds how
 * long one statement holds the product's row.
 */
const BUY_NOW_BATCH = 16;

const buyNowBatches = createRowBatcher<BuyNowWrite, PlacedOrder | undefined>({
  max: BUY_NOW_BATCH,
  together: (first, purchase) => purchase.db === first.db && purchase.guardKey === first.guardKey,
  async write(_product, purchases) {
    try {
      return (await writeBuyNowBatch(purchases)).map((value) => ({ status: 'fulfilled', value }));
    } catch (error) {
      if (purchases.length === 1) throw error;
      // One purchase can fail the statement for all (its key used by a repeat that committed meanwhile):
      // each alone then, so each gets its own outcome.
      const alone: Array<PromiseSettledResult<PlacedOrder | undefined>> = [];
      for (const purchase of purchases) {
        alone.push(
          await writeBuyNowBatch([purchase]).then(
            ([value]) => ({ status: 'fulfilled', value }) as const,
            (reason: unknown) => ({ status: 'rejected', reason }) as const,
          ),
        );
      }
      return alone;
    }
  },
});

/** Buy Now purchases of this product waiting in this process for their product's next statement. */
export function buyNowWaitingFor(productId: string): number {
  return buyNowBatches.waiting(productId);
}

type BuyNowLine = PlacementLine & { idempotencyKey: string | null };

/** Who is buying what, how and where to: what every Buy Now attempt is decided for. */
interface BuyNowRequest {
  db: Db;
  config: Config;
  buyer: SessionUser;
  line: BuyNowLine;
  mode: VerificationMode;
  destination: Destination;
}

/**
 * One attempt: the rules and the price decided on `read` (a refusal throws), then the one guarded
 * statement; undefined when its guards found the row changed and nothing was written. `remembered`: the
 * read came from memory, so the statement proves the seller's and the buyer's values too. `number` goes
 * back to the memory unless an order took it; an order written reserves the next one.
 */
async function decideAndWrite(
  { db, config, buyer, line, mode, destination }: BuyNowRequest,
  read: Omit<BuyNowRead, 'number' | 'keyTaken'> & { keyTaken?: boolean },
  number: string,
  remembered: boolean,
): Promise<PlacedOrder | undefined> {
  const memo = buyNowMemoFor<RememberedProduct>(db);
  let placed: PlacedOrder | undefined;
  try {
    const pricing = pricingOf(mode, statusOfProfile(read.profile));
    const keyUnused = line.idempotencyKey !== null && read.keyTaken === false;
    // Refused before anything else, as the product is not yet looked at.
    if (!pricing.canOrder) throw refused(forbidden(VERIFY_TEXT.required, { title: VERIFY_TEXT.requiredTitle }), keyUnused);
    const refusal = refusalOf(read.product, buyer, line);
    if (refusal || !read.product) throw refused(refusal ?? productNotFound(), keyUnused);
    const placement = { buyer, breaksApply: pricing.breaksApply, lines: [line], idempotencyKey: line.idempotencyKey, poNumber: null, checkoutId: null };
    // Every Buy Now order of a product is filed in that product's rollup shard, so a batch locks one (db/rollup-shard.ts).
    const draft = draftOrder(placement, [read.product], number, destination, orderIdInShard(rollupShardOf(read.product.id)));
    placed = await buyNowBatches.submit(read.product.id, {
      db,
      config,
      buyer,
      draft,
      destination,
      product: read.product,
      seller: read.seller,
      rememberedProfile: remembered ? read.profile : null,
      guardKey: guardKeyOf(read.product, read.seller),
    });
    return placed;
  } finally {
    if (!placed) memo.keepNumber(number);
    else if (placed.nextNumber) memo.keepNumber(placed.nextNumber);
  }
}

/**
 * Buy Now from what this process remembers (buy-now-memo.ts, docs/decisions/029-buy-now-one-statement.md):
 * when the product, the buyer's profile and a reserved order number are all at hand, one statement and
 * no read, its guards proving every remembered value. Null when it could not be placed that way: nothing
 * remembered, a refusal (only a fresh read may refuse), or a guard that found something changed.
 */
async function buyFromMemory(request: BuyNowRequest): Promise<PlacedOrder | null> {
  const memo = buyNowMemoFor<RememberedProduct>(request.db);
  const remembered = memo.product(request.line.productId.toLowerCase());
  const profile = memo.buyer(request.buyer.id);
  if (!remembered || !profile) return null;
  const number = memo.takeNumber();
  if (number === undefined) return null;
  try {
    return (await decideAndWrite(request, { ...remembered, profile }, number, true)) ?? null;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * Buy Now in one statement when this process remembers what it needs (buyFromMemory), else in two and
 * no explicit transaction (docs/decisions/022-purchase-statements.md): one read of the product, its
 * seller, the buyer's status and a reserved order number; the rules and the price decided on it; then
 * one statement that takes the stock under guards (buyNowHead) and writes the order with everything
 * that goes with it, all or nothing, together with the other purchases of the product waiting for it
 * (writeBuyNowBatch). The row is locked only while that one statement runs. A miss (sold out meanwhile,
 * or edited by its seller) reads again.
 */
export async function buyNow(
  db: Db,
  config: Config,
  buyer: SessionUser,
  line: BuyNowLine,
  mode: VerificationMode,
  destination: Destination,
): Promise<PlacedOrder> {
  const request = { db, config, buyer, line, mode, destination };
  const fromMemory = await buyFromMemory(request);
  if (fromMemory) return fromMemory;
  for (let attempt = 0; attempt < BUY_NOW_ATTEMPTS; attempt++) {
    const read = await readForBuyNow(db, buyer.id, line.productId, line.idempotencyKey);
    const placed = await decideAndWrite(request, read, read.number, false);
    if (placed) return placed;
  }
  // Each read allowed the order and each write found the row changed (its seller editing it, or other
  // buyers taking the stock between the two): nothing was placed, and trying again may well pass.
  throw new AppError('CONFLICT', 'This product changed while your order was being placed; nothing was ordered. Please try again.', {
    title: MESSAGES.errorTitle,
  });
}
