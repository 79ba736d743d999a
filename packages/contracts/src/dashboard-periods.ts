/**
 * The dashboard's constants without zod, so that the web page that reads them does not pull the
 * validation library into its chunk (docs/decisions/005-page-weight.md). The schemas are in dashboard.ts.
 */

/** Days are calendar days in the business time zone, UTC, the one ship-by dates and business days use. */
export const BUSINESS_TIME_ZONE = 'UTC';

export const DASHBOARD_PERIODS = ['7d', '30d', '90d', '12m'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

export function isDashboardPeriod(value: unknown): value is DashboardPeriod {
  return (DASHBOARD_PERIODS as readonly unknown[]).includes(value);
}

/** A product covering fewer days than this at the period's sales rate is low on stock. */
export const LOW_STOCK_DAYS = 14;
/** The dashboard's lists are bounded: the ten best products, the twenty lowest stocks; exports a year at most. */
export const DASHBOARD_LIMITS = { topProducts: 10, lowStock: 20, exportDaysMax: 366 } as const;
