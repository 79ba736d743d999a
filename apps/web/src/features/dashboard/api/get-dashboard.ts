import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@bulkcart/contracts/dashboard';
import type { DashboardPeriod } from '@bulkcart/contracts/dashboard-periods';
import { apiGet } from '@/lib/api-client.ts';
import { dashboardPath } from './dashboard-path.ts';

/** GET /api/seller/dashboard?period=: the signed-in seller's figures for a period ending today. */
export function getDashboard(period: DashboardPeriod): Promise<Dashboard> {
  return apiGet<Dashboard>(dashboardPath(period));
}

export function dashboardQueryOptions(period: DashboardPeriod) {
  return queryOptions({ queryKey: ['seller', 'dashboard', period] as const, queryFn: () => getDashboard(period) });
}

/** The figures, kept on screen while another period loads; asked again when the seller comes back to the tab. */
export function useDashboard(period: DashboardPeriod) {
  return useQuery({ ...dashboardQueryOptions(period), placeholderData: keepPreviousData, refetchOnWindowFocus: true });
}

/** Downloads go straight to the API: the session cookie goes with a plain link. */
export const dashboardCsvHref = (period: DashboardPeriod) => `/api/seller/dashboard.csv?period=${period}`;
export const ordersCsvHref = (from: string, to: string) => `/api/seller/orders.csv?from=${from}&to=${to}`;
