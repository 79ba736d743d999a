import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/db/client.ts';
import { createPostgresDatabase, type DatabaseKind } from '../../helpers/test-app.ts';
import { readStockLedger, type StockLedger } from '../../security/support/db-snapshot.ts';
import { send, signUp, type Account } from './http-client.ts';

/** Where a server under test keeps its data, and how to read that data once the server is gone. */
export interface DataHome {
  kind: DatabaseKind;
  env: Record<string, string>;
  /** Opens the database directly (only while no server holds a PGlite folder) and reads the books. */
  readLedger(): Promise<StockLedger>;
  remove(): Promise<void>;
}

export async function createDataHome(kind: DatabaseKind): Promise<DataHome> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-crash-'));
    return {
      kind,
      env: { DATA_DIR: dataDir },
      async readLedger() {
        const database = await openDatabase({ kind: 'pglite', dataDir });
        try {
          return await readStockLedger(database.db);
        } finally {
          await database.close();
        }
      },
      async remove() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const pg = await createPostgresDatabase();
  return {
    kind,
    env: { DATABASE_URL: pg.url, DB_POOL_SIZE: '10' },
    async readLedger() {
      const database = await openDatabase({ kind: 'postgres', url: pg.url, poolSize: 2 });
      try {
        return await readStockLedger(database.db);
      } finally {
        await database.close();
      }
    },
    remove: () => pg.drop(),
  };
}

export interface Catalog {
  seller: Account;
  buyers: Account[];
  /** Product id → the stock it was listed with. */
  stock: Map<string, number>;
}

/**
 * A seller with four products (one with little stock, so some orders meet "supply is short") and
 * `buyerCount` buyers, all made through the API of a running server.
 */
export async function listCatalog(baseUrl: string, buyerCount: number, tag: string): Promise<Catalog> {
  const seller = await signUp(baseUrl, 'Resilience Seller', `seller-${tag}@example.com`);
  const stock = new Map<string, number>();
  for (const [i, mainquantity] of [1_000_000, 1_000_000, 1_000_000, 400].entries()) {
    const answer = await send(baseUrl, {
      method: 'POST',
      path: '/api/addproduct',
      headers: { authorization: `Bearer ${seller.token}` },
      body: {
        image: '/images/products/crate.webp',
        name: `Crate ${i + 1}`,
        mainquantity,
        minquantity: 1,
        brandname: 'CrateCo',
        category: 'Industrial Machinery & Tools',
        price: 5,
      },
    });
    if (answer.status !== 201) throw new Error(`add product failed: ${answer.status} ${answer.body}`);
    stock.set(answer.json<{ _id: string }>()._id, mainquantity);
  }
  const buyers: Account[] = [];
  for (let i = 0; i < buyerCount; i++) buyers.push(await signUp(baseUrl, `Resilience Buyer ${i + 1}`, `buyer-${i + 1}-${tag}@example.com`));
  return { seller, buyers, stock };
}
