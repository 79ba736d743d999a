import { and, eq, sql } from 'drizzle-orm';
import { productIdSchema, toCents, toDollars, type ProductSeller, type SellerSettings } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { user as users } from '../../db/schema/auth.ts';
import { isListed, products } from '../../db/schema/catalog.ts';
import { sellerSettings } from '../../db/schema/cart.ts';
import { notFound } from '../../lib/app-error.ts';
import type { SessionUser } from '../accounts/session.ts';

/** GET /api/seller/settings: the caller's own; nothing set is a minimum of null. */
export async function getSellerSettings(ctx: { db: Db; user: SessionUser }): Promise<SellerSettings> {
  const [row] = await ctx.db.select({ cents: sellerSettings.minimumOrderCents }).from(sellerSettings).where(eq(sellerSettings.userId, ctx.user.id));
  return { minimumOrder: row?.cents == null ? null : toDollars(row.cents) };
}

/** PUT /api/seller/settings: replaces the caller's settings; from now on every new order from them must reach the minimum. */
export async function putSellerSettings(ctx: { db: Db; user: SessionUser }, input: SellerSettings): Promise<SellerSettings> {
  const minimumOrderCents = input.minimumOrder === null ? null : toCents(input.minimumOrder);
  await ctx.db
    .insert(sellerSettings)
    .values({ userId: ctx.user.id, minimumOrderCents })
    .onConflictDoUpdate({ target: sellerSettings.userId, set: { minimumOrderCents, updatedAt: sql`now()` } });
  return { minimumOrder: input.minimumOrder };
}

/**
 * GET /api/product/{id}/seller, public like the product: the seller's name as orders show it and
 * their minimum order. A product whose seller account is gone names its listing email, without one; an
 * unlisted product is a 404, as its page is.
 */
export async function getProductSeller(ctx: { db: Db }, input: { id: string }): Promise<ProductSeller> {
  const parsed = productIdSchema.safeParse(input.id);
  const missing = () => notFound('This product does not exist (it may have been deleted).');
  if (!parsed.success) throw missing();
  const [row] = await ctx.db
    .select({ ownerEmail: products.ownerEmail, name: users.name, cents: sellerSettings.minimumOrderCents })
    .from(products)
    .leftJoin(users, eq(users.id, products.ownerId))
    .leftJoin(sellerSettings, eq(sellerSettings.userId, products.ownerId))
    .where(and(eq(products.id, parsed.data.toLowerCase()), isListed));
  if (!row) throw missing();
  return { sellerName: row.name ?? row.ownerEmail, minimumOrder: row.cents == null ? null : toDollars(row.cents) };
}
