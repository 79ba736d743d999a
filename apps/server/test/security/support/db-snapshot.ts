import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/db/client.ts';
import { queryRows } from '../../../src/db/rows.ts';

/**
 * Everything a refused request could have touched, as text: every row of products and orders in id
 * order (all columns, timestamps included), every user row, saved address and notification, business
 * profiles and the verification audit, and how many sessions, accounts and verifications exist. Two
 * equal snapshots mean the database is byte-for-byte unchanged where it matters.
 */
export interface DbSnapshot {
  products: string;
  orders: string;
  users: string;
  /** The order workflow's tables (migration 0004): saved addresses, notifications, lines, timeline. */
  shipTo: string;
  notifications: string;
  orderLines: number;
  orderEvents: number;
  sessions: number;
  accounts: number;
  verifications: number;
  /** Business profiles and the audit log. */
  businessProfiles: string;
  /** The stored documents, each as its digest and time of change. */
  businessDocuments: string;
  audit: string;
  /** The cart and what goes with it (migration 0009): lines, locks, checkouts, seller settings, saved lists. */
  cart: string;
  /** Catalog import jobs and their rows (migration 0013), without the uploaded bytes. */
  catalogImports: string;
}

export async function takeSnapshot(db: Pick<Db, 'execute'>): Promise<DbSnapshot> {
  const [row] = await queryRows<DbSnapshot>(
    db,
    sql`SELECT
      (SELECT coalesce(json_agg(p ORDER BY p.id), '[]'::json)::text FROM products p) AS products,
      (SELECT coalesce(json_agg(o ORDER BY o.id), '[]'::json)::text FROM orders o) AS orders,
      (SELECT coalesce(json_agg(u ORDER BY u.id), '[]'::json)::text FROM "user" u) AS users,
      (SELECT coalesce(json_agg(a ORDER BY a.user_id), '[]'::json)::text FROM ship_to_addresses a) AS "shipTo",
      (SELECT coalesce(json_agg(n ORDER BY n.id), '[]'::json)::text FROM notifications n) AS notifications,
      (SELECT count(*)::int FROM order_lines) AS "orderLines",
      (SELECT count(*)::int FROM order_events) AS "orderEvents",
      (SELECT count(*)::int FROM session) AS sessions,
      (SELECT count(*)::int FROM account) AS accounts,
      (SELECT count(*)::int FROM verification) AS verifications,
      (SELECT coalesce(json_agg(b ORDER BY b.id), '[]'::json)::text FROM (SELECT id, user_id, legal_name, business_type, permit_number, permit_region,
        permit_expires, address, status, reason, revision, document_type, document_name, document_size, document_uploaded_at, queue_seq, submitted_at,
        reviewed_at, updated_at FROM business_profiles) b) AS "businessProfiles",
      (SELECT coalesce(json_agg(d ORDER BY d.profile_id), '[]'::json)::text FROM (SELECT profile_id, md5(bytes) AS digest, updated_at FROM business_documents) d) AS "businessDocuments",
      (SELECT coalesce(json_agg(a ORDER BY a.seq), '[]'::json)::text FROM verification_audit a) AS audit,
      concat_ws('|',
        (SELECT coalesce(json_agg(c ORDER BY c.id), '[]'::json)::text FROM cart_lines c),
        (SELECT coalesce(json_agg(c ORDER BY c.buyer_id), '[]'::json)::text FROM carts c),
        (SELECT coalesce(json_agg(c ORDER BY c.id), '[]'::json)::text FROM checkouts c),
        (SELECT coalesce(json_agg(s ORDER BY s.user_id), '[]'::json)::text FROM seller_settings s),
        (SELECT coalesce(json_agg(l ORDER BY l.id), '[]'::json)::text FROM order_lists l),
        (SELECT coalesce(json_agg(l ORDER BY l.id), '[]'::json)::text FROM order_list_lines l)) AS cart,
      concat_ws('|',
        (SELECT coalesce(json_agg(j ORDER BY j.id), '[]'::json)::text FROM (SELECT id, seller_id, status, reason, total, done, create_count, update_count,
          unchanged_count, invalid_count, applied_at, undone_at, updated_at FROM catalog_imports) j),
        (SELECT coalesce(json_agg(r ORDER BY r.import_id, r.row_number), '[]'::json)::text FROM catalog_import_rows r)) AS "catalogImports"`,
  );
  if (!row) throw new Error('snapshot query returned no row');
  return row;
}

export interface StockLedger {
  /** Products whose stock went below 0 (must be none). */
  negative: Array<{ id: string; mainquantity: number }>;
  /** Live (not cancelled) order quantity per product id. */
  liveByProduct: Map<string, number>;
  stockByProduct: Map<string, number>;
}

/** Stock and live order quantities per product, for "initial stock = stock + live orders" checks. */
export async function readStockLedger(db: Pick<Db, 'execute'>): Promise<StockLedger> {
  const rows = await queryRows<{ id: string; mainquantity: number; live: number }>(
    db,
    sql`SELECT p.id, p.mainquantity,
          coalesce((SELECT sum(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id
                    WHERE l.product_id = p.id AND o.cancelled_at IS NULL), 0)::int AS live
        FROM products p ORDER BY p.id`,
  );
  return {
    negative: rows.filter((r) => r.mainquantity < 0).map((r) => ({ id: r.id, mainquantity: r.mainquantity })),
    liveByProduct: new Map(rows.map((r) => [r.id, r.live])),
    stockByProduct: new Map(rows.map((r) => [r.id, r.mainquantity])),
  };
}

/**
 * The same content as takeSnapshot (every column of every row, and the counts), hashed in the
 * database so one short value comes back per call: cheap enough to run after every fuzzed request.
 */
export async function takeFingerprint(db: Pick<Db, 'execute'>): Promise<string> {
  const [row] = await queryRows<{ fingerprint: string }>(
    db,
    sql`SELECT md5(concat_ws('|',
      (SELECT string_agg(p::text, ',' ORDER BY p.id) FROM products p),
      (SELECT string_agg(o::text, ',' ORDER BY o.id) FROM orders o),
      (SELECT string_agg(u::text, ',' ORDER BY u.id) FROM "user" u),
      (SELECT count(*) FROM session), (SELECT count(*) FROM account), (SELECT count(*) FROM verification))) AS fingerprint`,
  );
  if (!row) throw new Error('fingerprint query returned no row');
  return row.fingerprint;
}
