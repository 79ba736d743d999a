export { registerCatalogRoutes } from './catalog.routes.ts';
export { runCatalogJobs } from './catalog-jobs.ts';
export { IMPORT_ROWS_SWEEP_MS, sweepImportRows } from './catalog-sweep.ts';
