import { sql } from 'drizzle-orm';
import { CATALOG_IMPORT_LIMITS } from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';

/** How often the staging rows of finished imports are swept: a 100,000-row import is gone within the hour. */
export const IMPORT_ROWS_SWEEP_MS = 60_000;
/** Rows one pass deletes at most, so a pass never holds the table (or the event loop on PGlite) long. */
export const IMPORT_ROWS_SWEEP_BATCH = 5_000;

/**
 * Deletes the staging rows of imports nobody can act on any more: failed ones, and applied or undone ones
 * whose undo window (24 hours from the apply) has passed. The job rows themselves stay for the history
 * list, with their counts; only their row-by-row detail (errors, changes, undo's `before`) goes. Rows are
 * picked once (MATERIALIZED, SKIP LOCKED) and joined on, so a pass deletes at most `limit`.
 */
export async function sweepImportRows(db: Db, now: Date, limit = IMPORT_ROWS_SWEEP_BATCH): Promise<number> {
  const undoCutoff = new Date(now.getTime() - CATALOG_IMPORT_LIMITS.undoWindowMs).toISOString();
  const [row] = await queryRows<{ deleted: number }>(
    db,
    sql`WITH picked AS MATERIALIZED (
          SELECT r.import_id, r.row_number FROM catalog_imports j
          JOIN catalog_import_rows r ON r.import_id = j.id
          WHERE j.status = 'failed' OR (j.status IN ('applied', 'undone') AND j.applied_at < ${undoCutoff}::timestamptz)
          LIMIT ${limit}::int
          FOR UPDATE OF r SKIP LOCKED
        ), gone AS (
          DELETE FROM catalog_import_rows r USING picked
          WHERE r.import_id = picked.import_id AND r.row_number = picked.row_number
          RETURNING 1
        )
        SELECT count(*)::int AS deleted FROM gone`,
  );
  return row?.deleted ?? 0;
}
