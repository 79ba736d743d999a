import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { session, user } from '../../db/schema/auth.ts';
import { products } from '../../db/schema/catalog.ts';

/**
 * Test data for the ordering tests, written straight to the tables so these tests do not depend on
 * the catalog API. Not a test file itself.
 */
export interface ProductSeed {
  name?: string;
  mainquantity?: number;
  minquantity?: number;
  priceCents?: number | null;
  discount?: number;
}

export async function insertProduct(db: Db, seed: ProductSeed = {}): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({
      name: seed.name ?? `Bulk item ${randomUUID().slice(0, 8)}`,
      image: '/images/products/test.webp',
      brandname: 'TestBrand',
      category: 'Office Supplies & Stationery',
      description: 'A product made by the ordering tests.',
      priceCents: seed.priceCents === undefined ? 1900 : seed.priceCents,
      discount: seed.discount ?? 0,
      rating: 4,
      mainquantity: seed.mainquantity ?? 1000,
      minquantity: seed.minquantity ?? 10,
      ownerEmail: 'seller@example.com',
    })
    .returning({ id: products.id });
  if (!row) throw new Error('product insert returned no row');
  return row.id;
}

export async function readStock(db: Db, productId: string): Promise<number | undefined> {
  const [row] = await db.select({ mainquantity: products.mainquantity }).from(products).where(eq(products.id, productId));
  return row?.mainquantity;
}

export interface QuickBuyer {
  id: string;
  email: string;
  name: string;
  /** For `Authorization: Bearer …`; better-auth's bearer plugin signs an unsigned token itself. */
  token: string;
}

/**
 * Many signed-in buyers at once: users and sessions inserted in two statements, because signing up
 * hundreds of accounts through password hashing would take longer than the test itself.
 */
export async function insertBuyers(db: Db, count: number, name = 'Quick Buyer'): Promise<QuickBuyer[]> {
  const buyers = Array.from({ length: count }, () => ({
    id: randomUUID(),
    email: `quick-${randomUUID()}@example.com`,
    name,
    token: randomBytes(24).toString('base64url'),
  }));
  await db.insert(user).values(buyers.map((b) => ({ id: b.id, name: b.name, email: b.email, emailVerified: true })));
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  await db.insert(session).values(buyers.map((b) => ({ id: randomUUID(), token: b.token, userId: b.id, expiresAt })));
  return buyers;
}

export function bearer(buyer: { token: string }): { authorization: string } {
  return { authorization: `Bearer ${buyer.token}` };
}
