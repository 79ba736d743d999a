/** What other modules (accounts' /api/me) may use of the dashboard. */
export { isSeller } from './dashboard.service.ts';
