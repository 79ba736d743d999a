import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ORDER_MESSAGES, addBusinessDays, toIsoDate, type Address, type OrderStatus } from '@bulkcart/contracts';
import type { Db } from '../client.ts';
import { user } from '../schema/auth.ts';
import { products } from '../schema/catalog.ts';
import { orderEvents, orderLines, orders } from '../schema/orders.ts';

/** The shops that have bought from the demo seller: history only, nobody signs in as them. */
const HISTORY_BUYERS = [
  { slug: 'corner-market', name: 'Corner Market', city: 'Oakland', region: 'CA', postalCode: '94607' },
  { slug: 'bayside-gifts', name: 'Bayside Gifts', city: 'Monterey', region: 'CA', postalCode: '93940' },
  { slug: 'northwind-outfitters', name: 'Northwind Outfitters', city: 'Portland', region: 'OR', postalCode: '97205' },
  { slug: 'lakeview-electronics', name: 'Lakeview Electronics', city: 'Chicago', region: 'IL', postalCode: '60614' },
  { slug: 'desert-bloom-boutique', name: 'Desert Bloom Boutique', city: 'Phoenix', region: 'AZ', postalCode: '85004' },
  { slug: 'harbor-supply', name: 'Harbor Supply Co', city: 'Seattle', region: 'WA', postalCode: '98101' },
  { slug: 'maple-street-shop', name: 'Maple Street Shop', city: 'Denver', region: 'CO', postalCode: '80202' },
  { slug: 'riverbend-retail', name: 'Riverbend Retail', city: 'Austin', region: 'TX', postalCode: '78701' },
] as const;

export const DEMO_HISTORY_BUYER_COUNT = HISTORY_BUYERS.length;
const HISTORY_DAYS = 120;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A small seeded generator, so every demo database tells the same story. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Event = { to: OrderStatus; from: OrderStatus | null; at: Date; actor: 'buyer' | 'seller' | 'system'; note: string | null };

/**
 * A few months of the demo seller's orders (docs/decisions/019-seller-dashboard.md), so the dashboard
 * is alive on a new demo: every status, a few late shipments and orders left to expire, shops that
 * come back. Written straight into the tables with their timelines; laid only while the seller has no
 * order at all, so it runs once. Stock is left as the catalog sets it (the history is already sold).
 */
export async function seedDemoHistory(db: Db, seller: { id: string; name: string }, now = new Date()): Promise<number> {
  const [existing] = await db.select({ id: orders.id }).from(orders).where(eq(orders.sellerId, seller.id)).limit(1);
  if (existing) return 0;
  const catalog = await db
    .select({
      id: products.id,
      name: products.name,
      image: products.image,
      brand: products.brandname,
      category: products.category,
      moq: products.minquantity,
      cents: products.priceCents,
      sku: products.sku,
    })
    .from(products)
    .where(eq(products.ownerId, seller.id))
    .orderBy(products.seq)
    .limit(12);
  const priced = catalog.filter((p) => p.cents !== null);
  if (priced.length === 0) return 0;

  const buyers = HISTORY_BUYERS.map((b) => ({ ...b, id: `demo-history-${b.slug}`, email: `${b.slug}@buyers.bulkcart.demo` }));
  await db
    .insert(user)
    .values(buyers.map((b) => ({ id: b.id, name: b.name, email: b.email, emailVerified: true })))
    .onConflictDoNothing({ target: user.id });

  const random = generator(29);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const orderRows: Array<typeof orders.$inferInsert> = [];
  const lineRows: Array<typeof orderLines.$inferInsert> = [];
  const eventRows: Array<typeof orderEvents.$inferInsert> = [];

  for (let daysAgo = HISTORY_DAYS; daysAgo >= 0; daysAgo--) {
    // Busier lately: a business that grows.
    const count = Math.floor(random() * 3) + (daysAgo < 45 ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const placedAt = new Date(now.getTime() - daysAgo * DAY - Math.floor(random() * 10 * HOUR) - HOUR);
      // The first three shops order most: they are the repeat buyers.
      const buyer = random() < 0.6 ? pick(buyers.slice(0, 3)) : pick(buyers);
      const product = pick(priced);
      const quantity = product.moq * (1 + Math.floor(random() * 3));
      const unit = product.cents ?? 0;
      const age = now.getTime() - placedAt.getTime();
      const shipTo: Address = {
        company: buyer.name,
        line1: '100 Main Street',
        city: buyer.city,
        region: buyer.region,
        postalCode: buyer.postalCode,
        country: 'US',
        phone: '+1 555 0100',
      };
      const id = randomUUID();
      const events: Event[] = [{ to: 'placed', from: null, at: placedAt, actor: 'buyer', note: null }];
      const roll = random();
      let status: OrderStatus = 'placed';
      let reason: string | null = null;
      let shipBy: string | null = null;
      let acceptedAt: Date | null = null;
      let shippedAt: Date | null = null;
      let cancelledAt: Date | null = null;
      if (age > 3 * DAY && roll < 0.05) {
        status = 'cancelled';
        reason = 'Ordered by mistake';
        cancelledAt = new Date(placedAt.getTime() + 3 * HOUR);
        events.push({ to: 'cancelled', from: 'placed', at: cancelledAt, actor: 'buyer', note: reason });
      } else if (age > 3 * DAY && roll < 0.09) {
        status = 'declined';
        reason = 'Out of stock for this lot size';
        cancelledAt = new Date(placedAt.getTime() + 6 * HOUR);
        events.push({ to: 'declined', from: 'placed', at: cancelledAt, actor: 'seller', note: reason });
      } else if (age > 5 * DAY && roll < 0.12) {
        status = 'cancelled';
        reason = ORDER_MESSAGES.notAcceptedInTime;
        cancelledAt = addBusinessDays(placedAt, 3);
        events.push({ to: 'cancelled', from: 'placed', at: cancelledAt, actor: 'system', note: reason });
      } else if (age > 20 * HOUR) {
        acceptedAt = new Date(placedAt.getTime() + (2 + Math.floor(random() * 18)) * HOUR);
        shipBy = toIsoDate(addBusinessDays(acceptedAt, 2));
        status = 'accepted';
        events.push({ to: 'accepted', from: 'placed', at: acceptedAt, actor: 'seller', note: `Ship by ${shipBy}` });
        // One in eight ships late; a few recent ones are still waiting (some of them past their date).
        const hoursToShip = random() < 0.125 ? 80 + Math.floor(random() * 30) : 10 + Math.floor(random() * 40);
        const shipped = new Date(acceptedAt.getTime() + hoursToShip * HOUR);
        if (shipped.getTime() < now.getTime() - 6 * HOUR && !(daysAgo < 9 && roll > 0.93)) {
          shippedAt = shipped;
          status = 'shipped';
          events.push({ to: 'shipped', from: 'accepted', at: shipped, actor: 'seller', note: 'UPS' });
          const delivered = new Date(shipped.getTime() + 2 * DAY);
          if (delivered < now) {
            status = 'delivered';
            events.push({ to: 'delivered', from: 'shipped', at: delivered, actor: 'buyer', note: null });
          }
        }
      }
      const line = {
        productId: product.id,
        quantity,
        unitPriceCents: unit,
        lineTotalCents: unit * quantity,
        listUnitPriceCents: unit,
        productName: product.name,
        productImage: product.image,
        productBrand: product.brand,
        productCategory: product.category,
        productMinquantity: product.moq,
      };
      const last = events.at(-1)!.at;
      orderRows.push({
        id,
        status,
        buyerId: buyer.id,
        buyerEmail: buyer.email,
        buyerName: buyer.name,
        sellerId: seller.id,
        sellerName: seller.name,
        totalCents: unit * quantity,
        shipTo,
        shipBy,
        carrier: shippedAt ? 'UPS' : null,
        tracking: shippedAt ? `1Z${id.slice(0, 12).replace(/-/g, '').toUpperCase()}` : null,
        reason,
        ...line,
        createdAt: placedAt,
        updatedAt: last,
        cancelledAt,
        acceptedAt,
        shippedAt,
      });
      lineRows.push({ orderId: id, position: 1, ...line, productSku: product.sku, createdAt: placedAt, updatedAt: placedAt });
      for (const e of events) {
        eventRows.push({
          orderId: id,
          actor: e.actor,
          actorId: e.actor === 'seller' ? seller.id : e.actor === 'buyer' ? buyer.id : null,
          fromStatus: e.from,
          toStatus: e.to,
          note: e.note,
          createdAt: e.at,
          updatedAt: e.at,
        });
      }
    }
  }
  await db.transaction(async (tx) => {
    await tx.insert(orders).values(orderRows);
    await tx.insert(orderLines).values(lineRows);
    // The timeline in time order, so its `seq` reads as it happened.
    eventRows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
    for (let i = 0; i < eventRows.length; i += 500) await tx.insert(orderEvents).values(eventRows.slice(i, i + 500));
  });
  return orderRows.length;
}
