import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../../../scripts/throwaway-postgres.ts';
import { buildServerIfStale } from './compiled-server.ts';
import { createPostgresTemplate, writePgliteTemplate } from './templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** A migrated database on that server, copied for each test database (helpers/templates.ts). */
    pgTemplate: string;
    /** A file holding a migrated PGlite data folder, loaded for each PGlite test database. */
    pgliteTemplatePath: string;
  }
}

let cluster: ThrowawayPostgres | null = null;
const cleanups: Array<() => Promise<void> | void> = [];

/**
 * Every API test runs on PGlite and on PostgreSQL. With TEST_PG_URL set (CI harness, benchmarks) that
 * server is used; otherwise a throwaway cluster is started here and removed at the end. Both migrated
 * templates are built here, once per run, and the compiled server the spawning tests run.
 */
export async function setup(project: TestProject): Promise<void> {
  buildServerIfStale();
  let url = process.env.TEST_PG_URL;
  if (!url) {
    cluster = await startThrowawayPostgres();
    url = cluster.url;
  }
  const folder = mkdtempSync(join(tmpdir(), 'bulkcart-templates-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const pgliteTemplatePath = join(folder, 'pglite-migrated.tar');
  const [pgTemplate] = await Promise.all([createPostgresTemplate(url), writePgliteTemplate(pgliteTemplatePath)]);
  cleanups.push(pgTemplate.drop);
  project.provide('pgAdminUrl', url);
  project.provide('pgTemplate', pgTemplate.name);
  project.provide('pgliteTemplatePath', pgliteTemplatePath);
}

export async function teardown(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  cluster?.stop();
  cluster = null;
}
