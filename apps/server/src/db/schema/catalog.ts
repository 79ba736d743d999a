import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { LOW_STOCK_MIN_ORDERS, type PriceBreakCents } from '@bulkcart/contracts';
import { user } from './auth.ts';
import { tsvector } from './search.ts';

/**
 * A listing's stock state in SQL, the rule of packages/contracts stockStateOf: 'sold_out' below one
 * minimum order, 'low' below LOW_STOCK_MIN_ORDERS of them, else 'in_stock'. No index is built on it
 * (nor on any other use of mainquantity or updated_at): a purchase's stock change then touches no
 * index (docs/decisions/027-stock-updates-hot.md, tested by db/stock-hot-updates.test.ts).
 * The product is in bigint: a minimum order of up to 1e9 units times 5 is past integer's range.
 */
export function stockStateSql(mainquantity: SQLWrapper, minquantity: SQLWrapper): SQL {
  return sql`(CASE WHEN ${mainquantity} < ${minquantity} THEN 'sold_out' WHEN ${mainquantity} < ${minquantity}::bigint * ${sql.raw(String(LOW_STOCK_MIN_ORDERS))} THEN 'low' ELSE 'in_stock' END)`;
}

/**
 * `seq` orders every list (newest first) and is the pagination cursor: unlike created_at it is unique
 * and exact, so a page boundary never drops or repeats a row.
 */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull().unique(),
    name: text('name').notNull(),
    image: text('image').notNull(),
    image2: text('image2'),
    image3: text('image3'),
    brandname: text('brandname').notNull(),
    category: text('category').notNull(),
    description: text('description'),
    content: text('content'),
    priceCents: integer('price_cents'),
    rating: smallint('rating'),
    discount: smallint('discount').notNull().default(0),
    /**
     * The unit price a card shows: the base price with the discount, rounded half up as
     * contracts/money.ts applyDiscount does. Search filters and sorts by it, so a price
     * band finds exactly the cards whose shown price is in it.
     */
    shownPriceCents: integer('shown_price_cents').generatedAlwaysAs(sql`(price_cents::bigint * (100 - discount) + 50) / 100`),
    /**
     * Volume breaks in the row itself, not a child table: the purchase locks one row and reads the
     * whole price from it, so an order racing a seller's edit pays the old ladder or the new, never a mix.
     */
    priceBreaks: jsonb('price_breaks')
      .$type<PriceBreakCents[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    casepack: integer('casepack').notNull().default(1),
    /** The seller's own code (docs/decisions/017-cart-and-checkout.md): unique per seller, compared without case. */
    sku: text('sku'),
    mainquantity: integer('mainquantity').notNull(),
    minquantity: integer('minquantity').notNull(),
    ownerId: text('owner_id').references(() => user.id, { onDelete: 'set null' }),
    ownerEmail: text('owner_email').notNull(),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the product was taken out of the catalog, or null while it is listed (docs/product/rules.md,
     * "Unlisted products"). An unlisted product is kept for the orders that name it but is absent for
     * buyers: lists, search and its facet cells, its page and every way to buy it. Rare (an undone
     * import's ordered products), so the catalog's list indexes stay whole and serve the same orders;
     * the filter drops the odd row they return.
     */
    unlistedAt: timestamp('unlisted_at', { withTimezone: true }),
    /**
     * Search document (docs/decisions/009-search.md): name weighted A, brand and category B, description C, each through
     * search_normalize (lower case, accents off; migration 0002) so that matching ignores both.
     */
    searchDoc: tsvector('search_doc')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('simple'::regconfig, search_normalize(name)), 'A') || setweight(to_tsvector('simple'::regconfig, search_normalize(brandname || ' ' || category)), 'B') || setweight(to_tsvector('simple'::regconfig, search_normalize(coalesce(description, ''))), 'C')`,
      ),
  },
  (t) => [
    check('products_mainquantity_nonnegative', sql`${t.mainquantity} >= 0`),
    check('products_minquantity_positive', sql`${t.minquantity} >= 1`),
    check('products_price_cents_positive', sql`${t.priceCents} IS NULL OR ${t.priceCents} >= 1`),
    check('products_casepack_positive', sql`${t.casepack} >= 1`),
    check('products_price_breaks_array', sql`jsonb_typeof(${t.priceBreaks}) = 'array' AND jsonb_array_length(${t.priceBreaks}) <= 5`),
    check('products_rating_range', sql`${t.rating} IS NULL OR ${t.rating} BETWEEN 1 AND 5`),
    check('products_discount_range', sql`${t.discount} BETWEEN 0 AND 90`),
    check('products_sku_form', sql`${t.sku} IS NULL OR ${t.sku} ~ '^[A-Za-z0-9._/-]{1,64}$'`),
    // One seller, one product per SKU (any case); quick order finds a SKU across all sellers, exactly
    // or by its start (text_pattern_ops serves `LIKE 'abc%'` whatever the database's collation).
    uniqueIndex('products_owner_sku_idx')
      .on(t.ownerId, sql`lower(${t.sku})`)
      .where(sql`${t.sku} IS NOT NULL`),
    index('products_sku_idx')
      .on(sql`lower(${t.sku}) text_pattern_ops`)
      .where(sql`${t.sku} IS NOT NULL`),
    index('products_seq_idx').on(t.seq.desc()),
    index('products_category_seq_idx').on(t.category, t.seq.desc()),
    index('products_available_seq_idx')
      .on(t.seq.desc())
      .where(sql`${t.minquantity} > 100`),
    index('products_category_available_seq_idx')
      .on(t.category, t.seq.desc())
      .where(sql`${t.minquantity} > 100`),
    index('products_owner_email_seq_idx').on(t.ownerEmail, t.seq.desc()),
    index('products_owner_id_idx').on(t.ownerId),
    // The catalog export's keyset pages (docs/decisions/018-catalog-import.md): one seller's products in seq order.
    index('products_owner_id_seq_idx').on(t.ownerId, t.seq),
    index('products_rating_seq_idx').on(sql`${t.rating} DESC NULLS LAST`, t.seq.desc()),
    // Search (docs/decisions/009-search.md): the text index, the price sorts, the brand filter, and the page of a query
    // without words narrowed by category and brand (its facets come from search_facet_cells).
    index('products_search_doc_idx').using('gin', t.searchDoc),
    index('products_shown_price_asc_seq_idx').on(sql`${t.shownPriceCents} ASC NULLS LAST`, t.seq.desc()),
    index('products_shown_price_desc_seq_idx').on(sql`${t.shownPriceCents} DESC NULLS LAST`, t.seq.desc()),
    index('products_brand_seq_idx').on(t.brandname, t.seq.desc()),
    // Stock is read from the row, not the index: see stockStateSql.
    index('products_facets_idx').on(t.category, t.brandname, t.shownPriceCents, t.minquantity),
  ],
);

export type ProductRow = typeof products.$inferSelect;

/**
 * What buyers may see and buy (docs/product/rules.md, "Unlisted products"): every buyer's read and
 * purchase of `products` (unaliased) carries it. Unlisted rows are rare, so the list indexes are whole:
 * they still serve every order, and this drops the odd row they return.
 */
export const isListed = sql`${products.unlistedAt} IS NULL`;
