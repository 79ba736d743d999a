import { and, eq, inArray, sql } from 'drizzle-orm';
import { CART_LIMITS, type Address, type VerificationStatus } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { preparedQuery, preparedStatement, slot } from '../../db/prepared.ts';
import { decodeColumns, selectColumns } from '../../db/rows.ts';
import { businessProfiles } from '../../db/schema/business.ts';
import { shipToAddresses } from '../../db/schema/orders.ts';
import { profileStatusColumns, statusOfProfile } from '../business/index.ts';
import { user as users } from '../../db/schema/auth.ts';
import { isListed, products } from '../../db/schema/catalog.ts';
import { cartLines, carts, sellerSettings } from '../../db/schema/cart.ts';
import type { Tx } from '../../db/client.ts';
import type { BuyableProduct, SellerInfo, StoredLine } from './cart-pricing.ts';

type Reader = Db | Tx;

/**
 * Takes the buyer's cart lock (docs/decisions/017-cart-and-checkout.md): every write to their cart,
 * lists and checkout runs after it, one at a time, so bounds counted under it hold.
 */
export async function lockCart(tx: Tx, buyerId: string): Promise<void> {
  // Created once, then only locked: a refused change leaves no trace. One statement on every usual
  // path: an existing cart is locked by the second CTE (the insert does nothing), a cart the insert
  // creates is locked by being inserted. Neither happens when another transaction created the cart
  // after this statement's snapshot (the insert waited for it to commit, the lock cannot see its row):
  // then a statement of its own, with a new snapshot, takes the lock.
  const [taken] = await lockCartStatement(tx, { buyer: buyerId });
  if (taken && Number(taken.created) + Number(taken.locked) > 0) return;
  await tx.select({ buyerId: carts.buyerId }).from(carts).where(eq(carts.buyerId, buyerId)).for('update');
}

/** Asked first in every cart write and checkout: prepared once per connection (db/prepared.ts). */
const lockCartStatement = preparedStatement(
  () => sql`WITH created AS (INSERT INTO carts (buyer_id) VALUES (${slot('buyer')}) ON CONFLICT DO NOTHING RETURNING 1),
             locked AS (SELECT 1 FROM carts WHERE buyer_id = ${slot('buyer')} FOR UPDATE)
        SELECT (SELECT count(*) FROM created)::int AS created, (SELECT count(*) FROM locked)::int AS locked`,
);

export const storedLineColumns = {
  productId: cartLines.productId,
  quantity: cartLines.quantity,
  seenUnitCents: cartLines.seenUnitCents,
  productName: cartLines.productName,
  productImage: cartLines.productImage,
  productSku: cartLines.productSku,
  sellerId: cartLines.sellerId,
  sellerName: cartLines.sellerName,
};

/** The buyer's lines, first added first (cart_lines_buyer_seq_idx); never more than the cart holds. */
export async function selectCartLines(db: Reader, buyerId: string): Promise<StoredLine[]> {
  return selectLinesOf(db, { buyer: buyerId });
}

// The cart's and the checkout's reads, asked on every view and every checkout: prepared once per
// connection (db/prepared.ts) instead of built by drizzle and planned by PostgreSQL each time.
const selectLinesOf = preparedQuery(
  storedLineColumns,
  (list) =>
    sql`SELECT ${list} FROM ${cartLines} WHERE ${cartLines.buyerId} = ${slot('buyer')} ORDER BY ${cartLines.seq} ASC LIMIT ${sql.raw(String(CART_LIMITS.lines))}`,
);

/** What the checkout reads of its buyer right after taking the cart's lock. */
export interface CheckoutReads {
  lines: StoredLine[];
  status: VerificationStatus;
  /** Their saved default ship-to, if any. */
  savedShipTo: Address | null;
}

/**
 * The buyer's lines (as selectCartLines reads them), business status and saved ship-to in one round
 * trip. The profile and the address are joined to one row, so a cart without lines still answers them.
 */
export async function readForCheckout(tx: Tx, buyerId: string): Promise<CheckoutReads> {
  const rows = await readForCheckoutStatement(tx, { buyer: buyerId });
  const first = rows[0] ?? {};
  const profile = decodeColumns(profileStatusColumns, first, 'b_');
  const { address } = decodeColumns({ address: shipToAddresses.address }, first, 'a_');
  return {
    lines: rows.filter((raw) => raw.c_productId !== null && raw.c_productId !== undefined).map((raw) => decodeColumns(storedLineColumns, raw, 'c_')),
    status: statusOfProfile({ status: profile.status ?? null, permitExpires: profile.permitExpires ?? null }),
    savedShipTo: address,
  };
}

const readForCheckoutStatement = preparedStatement(
  () => sql`SELECT ${selectColumns(profileStatusColumns, 'b_')}, ${shipToAddresses.address} AS "a_address", lines.*
      FROM (SELECT 1) AS one
      LEFT JOIN ${businessProfiles} ON ${businessProfiles.userId} = ${slot('buyer')}
      LEFT JOIN ${shipToAddresses} ON ${shipToAddresses.userId} = ${slot('buyer')}
      LEFT JOIN LATERAL (
        SELECT ${selectColumns(storedLineColumns, 'c_')}, ${cartLines.seq} AS seq FROM ${cartLines}
         WHERE ${cartLines.buyerId} = ${slot('buyer')} ORDER BY ${cartLines.seq} ASC LIMIT ${sql.raw(String(CART_LIMITS.lines))}
      ) AS lines ON true
     ORDER BY lines.seq ASC`,
);

const buyableColumns = {
  id: products.id,
  name: products.name,
  image: products.image,
  sku: products.sku,
  priceCents: products.priceCents,
  discount: products.discount,
  priceBreaks: products.priceBreaks,
  casepack: products.casepack,
  mainquantity: products.mainquantity,
  minquantity: products.minquantity,
  ownerId: products.ownerId,
  ownerEmail: products.ownerEmail,
};

/**
 * Listed products by id, with their sellers' names and minimum order values joined on, in one round
 * trip: an unlisted product is absent, as a deleted one is (the cart says "no longer sold", adding it
 * is a 404). The checkout reads them locked instead (orders/place-order.ts lockProductsForPlacement).
 */
export async function selectBuyableProductsAndSellers(
  db: Reader,
  ids: readonly string[],
): Promise<{ products: Map<string, BuyableProduct>; sellers: Map<string, SellerInfo> }> {
  if (ids.length === 0) return indexBuyable([]);
  return indexBuyable(await selectBuyable(db, { ids: [...new Set(ids)] }));
}

/** Products by id and their sellers by id, as priceCart takes them, from rows with the seller joined on. */
export function indexBuyable<P extends BuyableProduct>(
  rows: ReadonlyArray<P & { sellerName: string | null; minimumOrderCents: number | null }>,
): { products: Map<string, P>; sellers: Map<string, SellerInfo> } {
  const found = { products: new Map<string, P>(), sellers: new Map<string, SellerInfo>() };
  for (const row of rows) {
    found.products.set(row.id, row);
    // A product whose owner is gone (or never was: demo data) has no seller row, as in selectSellers.
    if (row.ownerId !== null && row.sellerName !== null) found.sellers.set(row.ownerId, { name: row.sellerName, minimumOrderCents: row.minimumOrderCents });
  }
  return found;
}

const buyableWithSellerColumns = { ...buyableColumns, sellerName: users.name, minimumOrderCents: sellerSettings.minimumOrderCents };

const selectBuyable = preparedQuery(
  buyableWithSellerColumns,
  (list) => sql`SELECT ${list} FROM ${products}
    LEFT JOIN ${users} ON ${users.id} = ${products.ownerId}
    LEFT JOIN ${sellerSettings} ON ${sellerSettings.userId} = ${products.ownerId}
    WHERE ${products.id} = ANY(${slot('ids')}::uuid[]) AND ${isListed}
    ORDER BY ${products.id} ASC`,
);

/** Listed products whose SKU is one of `skus` (any case), every seller's (products_sku_idx). */
export async function selectProductsBySku(db: Reader, skus: readonly string[]): Promise<BuyableProduct[]> {
  if (skus.length === 0) return [];
  const lowered = [...new Set(skus.map((s) => s.toLowerCase()))];
  return (
    db
      .select(buyableColumns)
      .from(products)
      .where(and(inArray(sql`lower(${products.sku})`, lowered), isListed))
      // Bounded: a SKU is unique per seller, and one paste names at most CART_LIMITS.rows of them.
      .limit(CART_LIMITS.rows * 20)
  );
}

/** Sellers' names and minimum order values, by seller id. */
export async function selectSellers(db: Reader, sellerIds: readonly (string | null)[]): Promise<Map<string, SellerInfo>> {
  const ids = [...new Set(sellerIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, minimumOrderCents: sellerSettings.minimumOrderCents })
    .from(users)
    .leftJoin(sellerSettings, eq(sellerSettings.userId, users.id))
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, { name: row.name, minimumOrderCents: row.minimumOrderCents }]));
}
