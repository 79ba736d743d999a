import { isDashboardPeriod, type DashboardPeriod } from '@bulkcart/contracts/dashboard-periods';

/**
 * The period a dashboard URL's `?period=` means (30 days unless it names another) and the API path of
 * its figures: one place for the page and for the request the router starts before the page's code
 * has loaded (app/first-requests.ts). Kept apart from get-dashboard.ts, which pulls TanStack Query.
 */
export function dashboardPeriodOf(asked: string | null): DashboardPeriod {
  return isDashboardPeriod(asked) ? asked : '30d';
}

export const dashboardPath = (period: DashboardPeriod): string => `/seller/dashboard?period=${period}`;
