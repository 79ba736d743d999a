import pg from 'pg';
import type { DatabaseTarget } from './processes.ts';

/**
 * What PostgreSQL ran for a measured load, from pg_stat_statements (loaded by `bench:api --pg-stats`,
 * scripts/throwaway-postgres.ts): each statement's calls and execution time in one database.
 */
export interface StatementLine {
  query: string;
  calls: number;
  totalMs: number;
  /** Time spent planning it (track_planning). */
  planMs: number;
  rows: number;
  /** Sent by a client (a round trip), not run inside another statement (a foreign key's check). */
  toplevel: boolean;
}

async function withClient<T>(target: DatabaseTarget, run: (client: pg.Client) => Promise<T>): Promise<T | null> {
  if (target.kind !== 'postgres') return null;
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Rows in the orders table now: statements are counted per order written between two counts. */
export async function countOrders(target: DatabaseTarget): Promise<number> {
  const n = await withClient(target, async (client) => Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM orders')).rows[0]?.n ?? 0));
  return n ?? 0;
}

/** Starts counting afresh (the counts are the cluster's; reading keeps only this database's). */
export async function resetStatementStats(target: DatabaseTarget): Promise<void> {
  await withClient(target, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  });
}

/** This database's statements since the reset, most called first (the counting queries left out). */
export async function readStatementStats(target: DatabaseTarget): Promise<StatementLine[]> {
  const rows = await withClient(target, async (client) => {
    const { rows: found } = await client.query<{ query: string; calls: string; total_ms: number; plan_ms: number; rows: string; toplevel: boolean }>(
      `SELECT query, calls, total_exec_time AS total_ms, total_plan_time AS plan_ms, rows, toplevel
         FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'
        ORDER BY calls DESC, total_exec_time DESC`,
    );
    return found.map((r) => ({
      query: r.query.replace(/\s+/g, ' ').trim(),
      calls: Number(r.calls),
      totalMs: Number(r.total_ms),
      planMs: Number(r.plan_ms),
      rows: Number(r.rows),
      toplevel: r.toplevel,
    }));
  });
  return rows ?? [];
}
