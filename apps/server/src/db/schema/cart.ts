import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';

/**
 * The cart and what belongs with it (docs/decisions/017-cart-and-checkout.md). Lines keep the product id
 * without a foreign key, and a copy of its name, image, SKU and seller: a line outlives its product, so
 * the buyer sees "no longer sold" instead of a line that silently vanished.
 */

/**
 * One row per buyer who has ever had a cart: every change to the cart, the lists and the checkout
 * takes this row's lock first, so two tabs (or a checkout and an edit) take turns and the 200-line
 * bound holds under concurrent writes.
 */
export const carts = pgTable('carts', {
  buyerId: text('buyer_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Columns a cart line and a list line share: the product and its copy at the time it was set. */
function productCopy() {
  return {
    productId: uuid('product_id').notNull(),
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    productSku: text('product_sku'),
    sellerName: text('seller_name').notNull(),
  };
}

export const cartLines = pgTable(
  'cart_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The cart's order: the line added first stays first. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    ...productCopy(),
    sellerId: text('seller_id').references(() => user.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    /** The unit price the buyer was shown when they last set the line: a different price now is "price changed". */
    seenUnitCents: integer('seen_unit_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('cart_lines_quantity_range', sql`${t.quantity} BETWEEN 1 AND 1000000`),
    uniqueIndex('cart_lines_buyer_product_idx').on(t.buyerId, t.productId),
    index('cart_lines_buyer_seq_idx').on(t.buyerId, t.seq),
    index('cart_lines_seller_id_idx').on(t.sellerId),
  ],
);

export type CartLineRow = typeof cartLines.$inferSelect;

/** A seller's own settings (decision 015): the minimum order value, in cents; null for none. */
export const sellerSettings = pgTable(
  'seller_settings',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    minimumOrderCents: integer('minimum_order_cents'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('seller_settings_minimum_positive', sql`${t.minimumOrderCents} IS NULL OR ${t.minimumOrderCents} >= 1`)],
);

/**
 * One checkout: its Idempotency-Key and what it was asked for. The orders it placed point here, so a
 * repeat of the key answers them again; the unique index makes a concurrent repeat wait and then fail.
 */
export const checkouts = pgTable(
  'checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    expectedTotalCents: bigint('expected_total_cents', { mode: 'number' }).notNull(),
    poNumber: text('po_number'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('checkouts_buyer_key_idx').on(t.buyerId, t.idempotencyKey)],
);

export type CheckoutRow = typeof checkouts.$inferSelect;

/** A buyer's named list of products and quantities ("Monthly restock"), private to them. */
export const orderLists = pgTable(
  'order_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_lists_owner_seq_idx').on(t.ownerId, t.seq)],
);

export type OrderListRow = typeof orderLists.$inferSelect;

export const orderListLines = pgTable(
  'order_list_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    listId: uuid('list_id')
      .notNull()
      .references(() => orderLists.id, { onDelete: 'cascade' }),
    ...productCopy(),
    quantity: integer('quantity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('order_list_lines_quantity_range', sql`${t.quantity} BETWEEN 1 AND 1000000`),
    uniqueIndex('order_list_lines_list_product_idx').on(t.listId, t.productId),
    index('order_list_lines_list_seq_idx').on(t.listId, t.seq),
  ],
);

export type OrderListLineRow = typeof orderListLines.$inferSelect;
