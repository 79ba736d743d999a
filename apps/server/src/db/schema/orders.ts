import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgSequence, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Address } from '@bulkcart/contracts';
import { user } from './auth.ts';
import { products } from './catalog.ts';
import { checkouts } from './cart.ts';

/** Order numbers (BC-10001, BC-10002 …): short, unique, never reused. */
export const orderNumberSeq = pgSequence('order_number_seq', { startWith: 10001 });

/**
 * An order: who buys from whom, where it goes, its status and its total; what was bought is in
 * order_lines (one line for Buy Now; a cart will write several per seller). The original one-line
 * columns (product_id … product_minquantity) stay as that line's copy for one-line orders and are
 * null on a multi-line one (docs/decisions/012-order-workflow.md). `cancelled_at`: when the stock went
 * back (a cancel or a decline); a cancelled order is kept, not deleted.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    number: text('number')
      .notNull()
      .default(sql`'BC-' || nextval('order_number_seq')::text`),
    status: text('status', { enum: ['placed', 'accepted', 'shipped', 'delivered', 'declined', 'cancelled'] })
      .notNull()
      .default('placed'),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    buyerEmail: text('buyer_email').notNull(),
    buyerName: text('buyer_name').notNull(),
    sellerId: text('seller_id').references(() => user.id, { onDelete: 'set null' }),
    sellerName: text('seller_name').notNull().default(''),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    shipTo: jsonb('ship_to').$type<Address>(),
    shipBy: date('ship_by', { mode: 'string' }),
    carrier: text('carrier'),
    tracking: text('tracking'),
    reason: text('reason'),
    /** When the "late" notice went out; at most once per order. */
    lateNotifiedAt: timestamp('late_notified_at', { withTimezone: true }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity'),
    unitPriceCents: integer('unit_price_cents'),
    /** unit × quantity; bigint because a large order of a dear product passes 2^31 cents. */
    lineTotalCents: bigint('line_total_cents', { mode: 'number' }),
    /** The base price when ordered, before the break and the discount. */
    listUnitPriceCents: integer('list_unit_price_cents'),
    /** The `minquantity` of the volume break that applied; null: the base price. */
    tierMinquantity: integer('tier_minquantity'),
    productName: text('product_name'),
    productImage: text('product_image'),
    productBrand: text('product_brand'),
    productCategory: text('product_category'),
    productMinquantity: integer('product_minquantity'),
    idempotencyKey: text('idempotency_key'),
    /** The buyer's purchase order number (a checkout's, kept on each of its orders). */
    poNumber: text('po_number'),
    /** The checkout that placed this order with others; null for Buy Now. */
    checkoutId: uuid('checkout_id').references(() => checkouts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * When the seller accepted and shipped it (the timeline has the same instants): the dashboard's
     * fulfilment times read them from the order row, not by joining every order's timeline (decision 019).
     */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
  },
  (t) => [
    check('orders_quantity_positive', sql`${t.quantity} >= 1`),
    check('orders_unit_price_nonnegative', sql`${t.unitPriceCents} >= 0`),
    check('orders_line_total_matches', sql`${t.lineTotalCents} = ${t.unitPriceCents}::bigint * ${t.quantity}`),
    check('orders_total_nonnegative', sql`${t.totalCents} >= 0`),
    check('orders_status_known', sql`${t.status} IN ('placed', 'accepted', 'shipped', 'delivered', 'declined', 'cancelled')`),
    uniqueIndex('orders_number_idx').on(t.number),
    uniqueIndex('orders_buyer_idempotency_key_idx').on(t.buyerId, t.idempotencyKey),
    // The buyer's list: every order but the cancelled ones, newest first.
    index('orders_buyer_listed_seq_idx')
      .on(t.buyerId, t.seq.desc())
      .where(sql`${t.status} <> 'cancelled'`),
    // The buyer's list of one status (the cart's Cancelled filter).
    index('orders_buyer_status_seq_idx').on(t.buyerId, t.status, t.seq.desc()),
    // The seller's desk (all, or one status) and its counts.
    index('orders_seller_seq_idx').on(t.sellerId, t.seq.desc()),
    index('orders_seller_status_seq_idx').on(t.sellerId, t.status, t.seq.desc()),
    // The sweep: placed orders by age, accepted orders by ship-by date not yet told late.
    index('orders_placed_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'placed'`),
    index('orders_accepted_ship_by_idx')
      .on(t.shipBy)
      .where(sql`${t.status} = 'accepted' AND ${t.lateNotifiedAt} IS NULL`),
    // The seller's dashboard and exports (docs/decisions/019-seller-dashboard.md): orders placed in a
    // period, with what the distinct buyers and the fulfilment figures read of them, so those read the
    // index alone; and whether a buyer had ordered before it.
    index('orders_seller_created_fulfilment_idx').on(t.sellerId, t.createdAt, t.status, t.buyerId, t.acceptedAt, t.shippedAt, t.shipBy),
    index('orders_seller_buyer_created_idx').on(t.sellerId, t.buyerId, t.createdAt),
    // A median's exact value (migration 0021): the orders of one whole-hour bucket of placed →
    // accepted (or accepted → shipped), in a period, with the instants the duration is computed from.
    index('orders_seller_accept_hours_idx')
      .on(t.sellerId, sql`(floor(date_part('epoch', ${t.acceptedAt} - ${t.createdAt}) / 3600)::integer)`, t.createdAt, t.acceptedAt)
      .where(sql`${t.acceptedAt} IS NOT NULL AND ${t.sellerId} IS NOT NULL`),
    index('orders_seller_ship_hours_idx')
      .on(t.sellerId, sql`(floor(date_part('epoch', ${t.shippedAt} - ${t.acceptedAt}) / 3600)::integer)`, t.createdAt, t.acceptedAt, t.shippedAt)
      .where(sql`${t.shippedAt} IS NOT NULL AND ${t.acceptedAt} IS NOT NULL AND ${t.sellerId} IS NOT NULL`),
    index('orders_product_id_idx').on(t.productId),
    index('orders_checkout_id_idx').on(t.checkoutId),
    check('orders_po_number_length', sql`char_length(${t.poNumber}) <= 40`),
  ],
);

export type OrderRow = typeof orders.$inferSelect;

/** One product bought in an order: its snapshot and the prices paid. */
export const orderLines = pgTable(
  'order_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    lineTotalCents: bigint('line_total_cents', { mode: 'number' }).notNull(),
    listUnitPriceCents: integer('list_unit_price_cents').notNull(),
    tierMinquantity: integer('tier_minquantity'),
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    productBrand: text('product_brand').notNull(),
    productCategory: text('product_category').notNull(),
    productMinquantity: integer('product_minquantity').notNull(),
    /** The seller's SKU when ordered; null when the product had none. */
    productSku: text('product_sku'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('order_lines_quantity_positive', sql`${t.quantity} >= 1`),
    check('order_lines_unit_price_nonnegative', sql`${t.unitPriceCents} >= 0`),
    check('order_lines_total_matches', sql`${t.lineTotalCents} = ${t.unitPriceCents}::bigint * ${t.quantity}`),
    uniqueIndex('order_lines_order_position_idx').on(t.orderId, t.position),
    // The dashboard's sums over a period's lines (units, sales per product) read this index alone,
    // one probe an order, instead of the whole table (decision 019).
    index('order_lines_order_sales_idx').on(t.orderId, t.productId, t.quantity, t.lineTotalCents),
    index('order_lines_product_id_idx').on(t.productId),
  ],
);

export type OrderLineRow = typeof orderLines.$inferSelect;

/**
 * The dashboard's rollup (docs/decisions/019-seller-dashboard.md): per seller and business day (UTC)
 * the counted orders (neither cancelled nor declined) placed that day: their total, how many, their
 * units. Kept by triggers on orders and order_lines (migration 0018) in the statement that changes an
 * order, so it is never behind. `shard` (0–7, from the order's id) spreads one seller's orders of a day
 * over eight rows, so concurrent orders of one seller do not all wait for one row's lock; readers sum
 * the shards.
 */
export const sellerSalesDays = pgTable(
  'seller_sales_days',
  {
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    shard: smallint('shard').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    orders: integer('orders').notNull(),
    units: bigint('units', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.day, t.shard] })],
);

/**
 * The same rollup per product: net cents and units of the counted orders' lines, per seller, business
 * day and product. A deleted product keeps its rows (lines keep their figures too); the dashboard
 * names only products that exist. Rows whose orders were all cancelled stay, at zero units.
 */
export const sellerProductSalesDays = pgTable(
  'seller_product_sales_days',
  {
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    productId: uuid('product_id').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    units: bigint('units', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.day, t.productId] })],
);

/**
 * Distinct buyers by month (docs/decisions/019-seller-dashboard.md, migration 0021): per seller, UTC
 * month and buyer, how many counted orders (neither cancelled nor declined) the buyer placed with the
 * seller that month. A row exists only while that count is above zero, so the primary key alone
 * answers "who bought in these months" (an index-only scan of a few thousand rows a year instead of the
 * year's orders). Kept by triggers on orders, like seller_sales_days; a period's partial months are
 * read from the orders themselves.
 */
export const sellerBuyerMonths = pgTable(
  'seller_buyer_months',
  {
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.month, t.buyerId] }), index('seller_buyer_months_buyer_seller_month_idx').on(t.buyerId, t.sellerId, t.month)],
);

/**
 * Fulfilment by month (migration 0021): per seller and UTC month of placing, counts of the orders
 * placed that month (whatever their status) by `measure` and `hours`: `accept` and `ship` count the
 * orders by whole hours from placed to accepted and from accepted to shipped (a histogram, which
 * finds the bucket of a median; its exact value is then read from the orders of that bucket alone by
 * the two partial indexes on orders below); `shipped`, `late` (shipped on a UTC day after ship-by)
 * and `expired` (cancelled by the sweep) count with hours 0. Rows at zero are deleted.
 */
export const sellerFulfilmentMonths = pgTable(
  'seller_fulfilment_months',
  {
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    measure: text('measure', { enum: ['accept', 'ship', 'shipped', 'late', 'expired'] }).notNull(),
    hours: integer('hours').notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.month, t.measure, t.hours] })],
);

/** An order's timeline: every transition, who made it, when, and why. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    actor: text('actor', { enum: ['buyer', 'seller', 'system'] }).notNull(),
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_seq_idx').on(t.orderId, t.seq), index('order_events_actor_id_idx').on(t.actorId)],
);

export type OrderEventRow = typeof orderEvents.$inferSelect;

/** A buyer's saved default ship-to address. */
export const shipToAddresses = pgTable('ship_to_addresses', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  address: jsonb('address').$type<Address>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
