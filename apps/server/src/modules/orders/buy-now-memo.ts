import type { Db } from '../../db/client.ts';
import type { ProfileStatusRow } from '../business/index.ts';

/**
 * What this process last read for Buy Now (docs/decisions/029-buy-now-one-statement.md): each product
 * with its seller, each buyer's business profile, and order numbers reserved by earlier purchases'
 * statements. With all three at hand a purchase skips its read and goes straight to its one statement,
 * which proves in its guards that every remembered value still holds (the product's price and snapshot,
 * its seller's name, address and minimum order, the buyer's status and permit): a memory that is out of
 * date only makes that statement write nothing, and the purchase then reads as it always did. Nothing
 * here is ever trusted for a refusal either: a purchase that the memory would refuse reads first.
 */
export interface BuyNowMemo<Product> {
  product(id: string): Product | undefined;
  rememberProduct(id: string, product: Product | null): void;
  buyer(id: string): BuyerProfile | undefined;
  rememberBuyer(id: string, profile: BuyerProfile): void;
  /** An order number no order has taken; undefined when none is reserved. */
  takeNumber(): string | undefined;
  /** A number reserved and not used (the purchase did not write), or reserved for a later purchase. */
  keepNumber(number: string): void;
}

/** A buyer's business profile as stored; `status: null` when they have none. */
export type BuyerProfile = ProfileStatusRow;

/** Bounds: one entry per product and per buyer that bought lately; numbers as many as purchases run at once. */
const MAX_PRODUCTS = 5_000;
const MAX_BUYERS = 10_000;
const MAX_NUMBERS = 256;

/** A map that forgets its oldest entry beyond `max` (insertion order; a write renews the entry). */
function boundedSet<V>(map: Map<string, V>, max: number, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}

function createMemo<Product>(): BuyNowMemo<Product> {
  const products = new Map<string, Product>();
  const buyers = new Map<string, BuyerProfile>();
  const numbers: string[] = [];
  return {
    product: (id) => products.get(id),
    rememberProduct(id, product) {
      if (product === null) products.delete(id);
      else boundedSet(products, MAX_PRODUCTS, id, product);
    },
    buyer: (id) => buyers.get(id),
    rememberBuyer: (id, profile) => boundedSet(buyers, MAX_BUYERS, id, profile),
    takeNumber: () => numbers.shift(),
    keepNumber(number) {
      // Beyond the bound a reserved number is dropped: a gap in the numbers, as a refused purchase leaves.
      if (numbers.length < MAX_NUMBERS) numbers.push(number);
    },
  };
}

const memos = new WeakMap<Db, BuyNowMemo<unknown>>();

/** The memory of purchases on this database (each app and test database has its own). */
export function buyNowMemoFor<Product>(db: Db): BuyNowMemo<Product> {
  let memo = memos.get(db);
  if (!memo) {
    memo = createMemo<Product>();
    memos.set(db, memo);
  }
  return memo as BuyNowMemo<Product>;
}
