import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth.ts';
import { products } from './catalog.ts';

/**
 * An order keeps a snapshot of what was bought, so the cart still renders after the product is edited
 * or deleted. A cancelled order is kept (cancelled_at) rather than deleted: the history stays and a
 * second cancel finds nothing live to restore.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    buyerEmail: text('buyer_email').notNull(),
    buyerName: text('buyer_name').notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** unit × quantity; bigint because a large order of a dear product passes 2^31 cents. */
    lineTotalCents: bigint('line_total_cents', { mode: 'number' }).notNull(),
    /** The base price when ordered, before the break and the discount. */
    listUnitPriceCents: integer('list_unit_price_cents').notNull(),
    /** The `minquantity` of the volume break that applied; null: the base price. */
    tierMinquantity: integer('tier_minquantity'),
    productName: text('product_name').notNull(),
    productImage: text('product_image').notNull(),
    productBrand: text('product_brand').notNull(),
    productCategory: text('product_category').notNull(),
    productMinquantity: integer('product_minquantity').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    check('orders_quantity_positive', sql`${t.quantity} >= 1`),
    check('orders_unit_price_nonnegative', sql`${t.unitPriceCents} >= 0`),
    check('orders_line_total_matches', sql`${t.lineTotalCents} = ${t.unitPriceCents}::bigint * ${t.quantity}`),
    uniqueIndex('orders_buyer_idempotency_key_idx').on(t.buyerId, t.idempotencyKey),
    index('orders_buyer_live_seq_idx').on(t.buyerId, t.seq.desc()).where(sql`${t.cancelledAt} IS NULL`),
    index('orders_product_id_idx').on(t.productId),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
