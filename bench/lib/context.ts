/** What every benchmark part is handed by bench/api.ts. */
export interface BenchContext {
  /** Seconds per measured load run. */
  duration: number;
  /** Seconds of unrecorded warm-up before each measured run. */
  warmup: number;
  connections: number;
  /** The throwaway PostgreSQL cluster's admin URL. */
  pgAdminUrl: string;
  /** Its data folder, to find the postmaster and count PostgreSQL's CPU time. */
  pgDataDir: string;
  databases: Array<'pglite' | 'postgres'>;
  /** --cpu-prof: servers are profiled and the orders part summarises where its CPU went. */
  isProfiling: boolean;
  /** --pg-stats: pg_stat_statements is loaded and the purchase parts count their statements. */
  hasStatementStats: boolean;
  log(message: string): void;
}

export const DATABASE_LABEL = { pglite: 'PGlite', postgres: 'PostgreSQL' } as const;
