import type { CartShapes } from '../parts/checkout.ts';

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
  /** --cart-shapes: the checkout's carts, the same ten lines every round or varied (parts/checkout.ts). */
  cartShapes: CartShapes;
  log(message: string): void;
}

export const DATABASE_LABEL = { pglite: 'PGlite', postgres: 'PostgreSQL' } as const;
