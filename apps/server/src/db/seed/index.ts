import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { products, user } from '../schema/index.ts';
import { DEMO_BUYER, DEMO_SELLER } from './demo-accounts.ts';
import { buildDemoCatalog } from './demo-catalog.ts';

async function ensureAccount(ctx: AppContext, account: { name: string; email: string; password: string }) {
  const existing = await ctx.db.select({ id: user.id }).from(user).where(eq(user.email, account.email)).limit(1);
  if (existing[0]) return existing[0].id;
  const created = await ctx.auth.api.signUpEmail({ body: account });
  return created.user.id;
}

/**
 * Idempotent: accounts are looked up before creation, and the catalog is laid only into an empty
 * products table, so a product a seller deleted does not come back on the next start.
 */
export async function seedDemoData(ctx: AppContext): Promise<{ products: number }> {
  await ensureAccount(ctx, DEMO_BUYER);
  const sellerId = await ensureAccount(ctx, DEMO_SELLER);
  const [any] = await ctx.db.select({ id: products.id }).from(products).limit(1);
  if (!any) {
    const rows = buildDemoCatalog().map(({ slug: _slug, ...p }) => ({ ...p, ownerId: sellerId, ownerEmail: DEMO_SELLER.email }));
    await ctx.db.insert(products).values(rows).onConflictDoNothing({ target: products.id });
  }
  const [count] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(products);
  return { products: count?.n ?? 0 };
}
