import type { RouteLimit } from './limited-route.ts';
import { EXPORT_LIMIT_DESCRIPTION } from './export-limits.ts';
import { ORDER_LIMIT_DESCRIPTION } from './order-limits.ts';

/** The 429 each limit a route names adds to its description (lib/define-route.ts). */
export const ROUTE_LIMIT_DESCRIPTIONS: Record<RouteLimit, string> = {
  orders: ORDER_LIMIT_DESCRIPTION,
  downloads: EXPORT_LIMIT_DESCRIPTION,
};
