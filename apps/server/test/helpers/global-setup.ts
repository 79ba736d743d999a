import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../../../scripts/throwaway-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

let cluster: ThrowawayPostgres | null = null;

/**
 * Every API test runs on PGlite and on PostgreSQL. With TEST_PG_URL set (CI harness, benchmarks) that
 * server is used; otherwise a throwaway cluster is started here and removed at the end.
 */
export async function setup(project: TestProject): Promise<void> {
  let url = process.env.TEST_PG_URL;
  if (!url) {
    cluster = await startThrowawayPostgres();
    url = cluster.url;
  }
  project.provide('pgAdminUrl', url);
}

export async function teardown(): Promise<void> {
  cluster?.stop();
  cluster = null;
}
