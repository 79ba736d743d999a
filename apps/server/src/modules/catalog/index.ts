export { registerCatalogRoutes } from './catalog.routes.ts';
export { runCatalogJobs } from './catalog-jobs.ts';
