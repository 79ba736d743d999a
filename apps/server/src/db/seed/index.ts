import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { products, user } from '../schema/index.ts';
import { businessProfiles } from '../schema/business.ts';
import { emailOutbox } from '../schema/orders.ts';
import { DEMO_BUYER, DEMO_OPERATOR, DEMO_SELLER } from './demo-accounts.ts';
import { buildDemoCatalog } from './demo-catalog.ts';

async function ensureAccount(ctx: AppContext, account: { name: string; email: string; password: string }) {
  const existing = await ctx.db.select({ id: user.id }).from(user).where(eq(user.email, account.email)).limit(1);
  if (existing[0]) return existing[0].id;
  const created = await ctx.auth.api.signUpEmail({ body: account });
  // Demo addresses are nobody's mailbox: the accounts are verified (the demo operator proven, so it is
  // an operator) and the confirmation e-mail sign-up queued for each is withdrawn.
  await ctx.db.update(user).set({ emailVerified: true, ownerProvenAt: sql`now()` }).where(eq(user.id, created.user.id));
  await ctx.db.delete(emailOutbox).where(eq(emailOutbox.toEmail, account.email));
  return created.user.id;
}

/** The demo buyer is a verified business (its permit valid for years); added once, never reset. */
async function ensureVerifiedBuyer(ctx: AppContext, userId: string): Promise<void> {
  const expires = new Date();
  expires.setUTCFullYear(expires.getUTCFullYear() + 5);
  await ctx.db
    .insert(businessProfiles)
    .values({
      userId,
      legalName: 'Demo Buyer Supplies LLC',
      businessType: 'retail_store',
      permitNumber: 'DEMO-RESALE-0001',
      permitRegion: 'California',
      permitExpires: expires.toISOString().slice(0, 10),
      address: { company: 'Demo Buyer Supplies LLC', line1: '1 Market Street', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US', phone: '+1 415 555 0100' },
      status: 'verified',
      queueSeq: sql`nextval('business_queue_seq')`,
      submittedAt: sql`now()`,
      reviewedAt: sql`now()`,
    })
    .onConflictDoNothing({ target: businessProfiles.userId });
}

/**
 * Idempotent: accounts are looked up before creation, and the catalog is laid only into an empty
 * products table, so a product a seller deleted does not come back on the next start.
 */
export async function seedDemoData(ctx: AppContext): Promise<{ products: number }> {
  // Side by side: password hashing runs on libuv's thread pool, so three accounts cost about one.
  const [buyerId, sellerId] = await Promise.all([ensureAccount(ctx, DEMO_BUYER), ensureAccount(ctx, DEMO_SELLER), ensureAccount(ctx, DEMO_OPERATOR)]);
  await ensureVerifiedBuyer(ctx, buyerId);
  const [any] = await ctx.db.select({ id: products.id }).from(products).limit(1);
  if (!any) {
    const rows = buildDemoCatalog().map(({ slug: _slug, ...p }) => ({ ...p, ownerId: sellerId, ownerEmail: DEMO_SELLER.email }));
    await ctx.db.insert(products).values(rows).onConflictDoNothing({ target: products.id });
  }
  const [count] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(products);
  return { products: count?.n ?? 0 };
}
