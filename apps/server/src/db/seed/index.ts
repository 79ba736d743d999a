import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { products, sellerSettings, user } from '../schema/index.ts';
import { businessProfiles } from '../schema/business.ts';
import { emailOutbox } from '../schema/orders.ts';
import { DEMO_BUYER, DEMO_OPERATOR, DEMO_SELLER, DEMO_SELLERS } from './demo-accounts.ts';
import { buildDemoCatalog, DEMO_SELLER_OF_CATEGORY } from './demo-catalog.ts';
import { seedDemoHistory } from './demo-history.ts';

async function ensureAccount(ctx: AppContext, account: { name: string; email: string; password: string }) {
  const existing = await ctx.db.select({ id: user.id }).from(user).where(eq(user.email, account.email)).limit(1);
  if (existing[0]) return existing[0].id;
  const created = await ctx.auth.api.signUpEmail({ body: account });
  // Demo addresses are nobody's mailbox: the accounts are verified (the demo operator proven, so it is
  // an operator) and the confirmation e-mail sign-up queued for each is withdrawn.
  await ctx.db
    .update(user)
    .set({ emailVerified: true, ownerProvenAt: sql`now()` })
    .where(eq(user.id, created.user.id));
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
      address: {
        company: 'Demo Buyer Supplies LLC',
        line1: '1 Market Street',
        city: 'San Francisco',
        region: 'CA',
        postalCode: '94105',
        country: 'US',
        phone: '+1 415 555 0100',
      },
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
  // Side by side: password hashing runs on libuv's thread pool, so the accounts cost about one each core.
  const [buyerId, sellerId, , ...otherSellerIds] = await Promise.all([
    ensureAccount(ctx, DEMO_BUYER),
    ensureAccount(ctx, DEMO_SELLER),
    ensureAccount(ctx, DEMO_OPERATOR),
    ...DEMO_SELLERS.map((seller) => ensureAccount(ctx, seller)),
  ]);
  await ensureVerifiedBuyer(ctx, buyerId);
  const sellers = new Map<string, { id: string; email: string }>([['demo', { id: sellerId, email: DEMO_SELLER.email }]]);
  DEMO_SELLERS.forEach((seller, i) => sellers.set(seller.email, { id: otherSellerIds[i] ?? sellerId, email: seller.email }));
  const minimums = DEMO_SELLERS.flatMap((seller, i) =>
    seller.minimumOrderCents !== null && otherSellerIds[i] ? [{ userId: otherSellerIds[i], minimumOrderCents: seller.minimumOrderCents }] : [],
  );
  if (minimums.length > 0) await ctx.db.insert(sellerSettings).values(minimums).onConflictDoNothing({ target: sellerSettings.userId });
  const [any] = await ctx.db.select({ id: products.id }).from(products).limit(1);
  if (!any) {
    const rows = buildDemoCatalog().map(({ slug: _slug, ...p }) => {
      const owner = sellers.get(DEMO_SELLER_OF_CATEGORY[p.category]) ?? { id: sellerId, email: DEMO_SELLER.email };
      return { ...p, ownerId: owner.id, ownerEmail: owner.email };
    });
    await ctx.db.insert(products).values(rows).onConflictDoNothing({ target: products.id });
  }
  // A few months of sales, so the demo seller's dashboard is alive (decision 019); once.
  await seedDemoHistory(ctx.db, { id: sellerId, name: DEMO_SELLER.name });
  const [count] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(products);
  return { products: count?.n ?? 0 };
}
