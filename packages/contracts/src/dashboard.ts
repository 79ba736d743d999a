import { z } from 'zod';
import { isoDateSchema } from './order.ts';
import { DASHBOARD_LIMITS, DASHBOARD_PERIODS } from './dashboard-periods.ts';

export * from './dashboard-periods.ts';

/**
 * The seller's dashboard (docs/decisions/019-seller-dashboard.md). Every figure is about the signed-in
 * seller's own orders; money is in dollars with at most two decimals (the API's unit), summed by the
 * database in integer cents.
 */
export const dashboardPeriodSchema = z.enum(DASHBOARD_PERIODS, { error: 'Period must be 7d, 30d, 90d or 12m' });

/** GET /api/seller/dashboard?period= */
export const dashboardQuerySchema = z.object({
  period: dashboardPeriodSchema.default('30d').describe('7d, 30d, 90d or 12m, ending today (UTC); 30d when left out'),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** The figures of one period: orders placed in it, cancelled and declined ones left out. */
export const dashboardKpisSchema = z.object({
  netSales: z.number().describe('Dollars: the totals of the orders placed in the period, less cancelled and declined ones'),
  orders: z.int(),
  units: z.int(),
  averageOrderValue: z.number().describe('Dollars: net sales / orders, to the cent; 0 without orders'),
  buyers: z.int().describe('Distinct buyers'),
  repeatBuyers: z.int().describe('Of those buyers, the ones who had ordered from you before the period'),
});
export type DashboardKpis = z.infer<typeof dashboardKpisSchema>;

/** One bucket of the sales chart: a day (7d, 30d), a week from Monday (90d) or a month (12m). */
export const dashboardPointSchema = z.object({
  start: z.string().describe('YYYY-MM-DD: the first day of the bucket inside the period'),
  netSales: z.number(),
  orders: z.int(),
});
export type DashboardPoint = z.infer<typeof dashboardPointSchema>;

export const dashboardTopProductSchema = z.object({
  productId: z.string(),
  name: z.string(),
  netSales: z.number(),
  units: z.int(),
  unlisted: z.boolean().describe('Unlisted (an undone import): buyers cannot see it, so it has no product page to open'),
});
export type DashboardTopProduct = z.infer<typeof dashboardTopProductSchema>;

/** How orders placed in the period were handled. */
export const dashboardFulfilmentSchema = z.object({
  medianHoursToAccept: z.number().nullable().describe('From placed to accepted, one decimal; null when none was accepted'),
  medianHoursToShip: z.number().nullable().describe('From accepted to shipped, one decimal; null when none shipped'),
  shipped: z.int().describe('Orders of the period that have shipped'),
  shippedLate: z.int().describe('Of those, the ones shipped after their ship-by date (UTC)'),
  lateShare: z.number().nullable().describe('shippedLate / shipped, 0 to 1 with three decimals; null when none shipped'),
  expiredUnaccepted: z.int().describe('Orders of the period cancelled because they were not accepted in time'),
});
export type DashboardFulfilment = z.infer<typeof dashboardFulfilmentSchema>;

export const dashboardLowStockSchema = z.object({
  productId: z.string(),
  name: z.string(),
  stock: z.int(),
  daysOfCover: z.number().describe('Stock / units sold a day in the period, one decimal; 0 when sold out'),
});
export type DashboardLowStock = z.infer<typeof dashboardLowStockSchema>;

/** What needs doing now, whatever the period. */
export const dashboardQueueSchema = z.object({
  toAccept: z.int().describe('Placed orders waiting for you'),
  toShip: z.int().describe('Accepted orders not shipped yet'),
  late: z.int().describe('Of those, the ones past their ship-by date (UTC)'),
});
export type DashboardQueue = z.infer<typeof dashboardQueueSchema>;

export const dashboardSchema = z.object({
  period: dashboardPeriodSchema,
  from: z.string().describe('YYYY-MM-DD: the first day of the period'),
  to: z.string().describe('YYYY-MM-DD: its last day, today'),
  previousFrom: z.string(),
  previousTo: z.string(),
  timeZone: z.string(),
  kpis: dashboardKpisSchema,
  previous: dashboardKpisSchema,
  series: z.array(dashboardPointSchema),
  topProducts: z.array(dashboardTopProductSchema),
  fulfilment: dashboardFulfilmentSchema,
  lowStock: z.array(dashboardLowStockSchema),
  queue: dashboardQueueSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** GET /api/seller/orders.csv?from=&to=: orders placed on these days (UTC), both included. */
export const ordersExportQuerySchema = z
  .object({ from: isoDateSchema, to: isoDateSchema })
  .refine((q) => q.from <= q.to, { path: ['to'], message: 'The end date must not be before the start date' })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < DASHBOARD_LIMITS.exportDaysMax, {
    path: ['to'],
    message: `Export at most ${DASHBOARD_LIMITS.exportDaysMax} days at a time`,
  });
export type OrdersExportQuery = z.infer<typeof ordersExportQuerySchema>;

/** The orders export's columns, in order. */
export const ORDERS_EXPORT_COLUMNS = [
  'Order number',
  'Placed (UTC)',
  'Ship by',
  'Shipped (UTC)',
  'Status',
  'Buyer business',
  'Ship to',
  'SKU',
  'Product',
  'Quantity',
  'Unit price',
  'Line total',
  'PO number',
  'Carrier',
  'Tracking',
] as const;
