import { useId, useState, type ReactNode } from 'react';
import type { Dashboard, DashboardKpis } from '@bulkcart/contracts/dashboard';
import { DASHBOARD_PERIODS, LOW_STOCK_DAYS, type DashboardPeriod } from '@bulkcart/contracts/dashboard-periods';
import { formatMoney, toCents } from '@bulkcart/contracts/money';
import { paths } from '@bulkcart/contracts/routes';
import { Link, useSearchParams } from '@/lib/router.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { LoadError } from '@/components/load-error.tsx';
import { dashboardCsvHref, ordersCsvHref, useDashboard } from '@/features/dashboard/api/get-dashboard.ts';
import { dashboardPeriodOf } from '@/features/dashboard/api/dashboard-path.ts';
import { SalesChart } from '@/features/dashboard/components/sales-chart.tsx';

const PERIOD_LABELS: Record<DashboardPeriod, string> = { '7d': '7 days', '30d': '30 days', '90d': '90 days', '12m': '12 months' };
const BUCKETS: Record<DashboardPeriod, 'day' | 'week' | 'month'> = { '7d': 'day', '30d': 'day', '90d': 'week', '12m': 'month' };

const money = (dollars: number) => formatMoney(toCents(dollars));
const salesDesk = (status: 'placed' | 'accepted') => `${paths.sales}?status=${status}`;

/**
 * /dashboard (docs/decisions/019-seller-dashboard.md): what needs doing now on top, then how the
 * period went against the one before, the sales chart (with its table and CSV), top products,
 * fulfilment and low stock, and the orders export for the accountant.
 */
export function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('period');
  const period: DashboardPeriod = dashboardPeriodOf(asked);
  const dashboard = useDashboard(period);
  const choose = (next: DashboardPeriod) => setParams(next === '30d' ? {} : { period: next }, { replace: true });

  return (
    <section aria-labelledby="dashboard-heading" className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id="dashboard-heading" className="text-2xl font-bold md:text-3xl">
          Dashboard
        </h1>
        <PeriodSwitch period={period} onChoose={choose} />
      </div>
      {dashboard.data ? (
        <Figures data={dashboard.data} period={period} isUpdating={dashboard.isPlaceholderData} />
      ) : dashboard.isPending ? (
        <Spinner label="Loading your dashboard" />
      ) : (
        <LoadError error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      )}
    </section>
  );
}

function PeriodSwitch({ period, onChoose }: { period: DashboardPeriod; onChoose: (p: DashboardPeriod) => void }) {
  return (
    <div role="group" aria-label="Period" className="join">
      {DASHBOARD_PERIODS.map((p) => (
        <button
          key={p}
          type="button"
          className={`btn btn-sm join-item ${p === period ? 'btn-primary' : 'btn-outline'}`}
          aria-pressed={p === period}
          onClick={() => onChoose(p)}
        >
          {PERIOD_LABELS[p]}
        </button>
      ))}
    </div>
  );
}

function Card({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`flex flex-col gap-3 rounded-box bg-base-100 p-4 ring-1 ring-base-300 ${className}`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Figures({ data, period, isUpdating }: { data: Dashboard; period: DashboardPeriod; isUpdating: boolean }) {
  const dateRange = (from: string, to: string) => `${from} to ${to}`;
  return (
    <div className="flex flex-col gap-6" aria-busy={isUpdating}>
      <Queue data={data} />
      <p className="text-sm text-base-content/80">
        {dateRange(data.from, data.to)} ({data.timeZone}), compared with {dateRange(data.previousFrom, data.previousTo)}.
      </p>
      <Kpis kpis={data.kpis} previous={data.previous} />
      <Card title="Net sales">
        <SalesChart points={data.series} bucket={BUCKETS[period]} csvHref={dashboardCsvHref(period)} />
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <TopProducts data={data} />
        <Fulfilment data={data} />
      </div>
      <LowStock data={data} />
      <OrdersExport from={data.from} to={data.to} />
    </div>
  );
}

function Queue({ data }: { data: Dashboard }) {
  const { toAccept, toShip, late } = data.queue;
  const items = [
    { label: 'to accept', count: toAccept, href: salesDesk('placed'), tone: '' },
    { label: 'to ship', count: toShip, href: salesDesk('accepted'), tone: '' },
    { label: 'late', count: late, href: `${paths.sales}?late=true`, tone: late > 0 ? 'ring-error text-error' : '' },
  ];
  return (
    <Card title="Needs doing now">
      <ul className="grid grid-cols-3 gap-2">
        {items.map((item) => (
          <li key={item.label}>
            <Link to={item.href} className={`flex flex-col items-center rounded-box p-3 ring-1 ring-base-300 hover:bg-base-200 ${item.tone}`}>
              <span className="text-2xl font-bold tabular-nums">{item.count}</span>{' '}
              <span className="text-sm">{`${item.count === 1 ? 'order' : 'orders'} ${item.label}`}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** "Up 12%", "Down 5%", "No change", or "New" when the previous period had none: words first, colour second. */
function change(now: number, before: number): { text: string; tone: string; arrow: string } {
  if (now === before) return { text: 'No change', tone: 'text-base-content/80', arrow: '' };
  if (before === 0) return { text: 'New this period', tone: 'text-success', arrow: '▲' };
  const percent = Math.round(((now - before) / before) * 100);
  return now > before ? { text: `Up ${percent}%`, tone: 'text-success', arrow: '▲' } : { text: `Down ${Math.abs(percent)}%`, tone: 'text-error', arrow: '▼' };
}

const KPI_LIST: Array<{ key: keyof DashboardKpis; label: string; format: (v: number) => string }> = [
  { key: 'netSales', label: 'Net sales', format: money },
  { key: 'orders', label: 'Orders', format: String },
  { key: 'units', label: 'Units', format: (v) => v.toLocaleString('en-US') },
  { key: 'averageOrderValue', label: 'Average order', format: money },
  { key: 'buyers', label: 'Buyers', format: String },
  { key: 'repeatBuyers', label: 'Repeat buyers', format: String },
];

function Kpis({ kpis, previous }: { kpis: DashboardKpis; previous: DashboardKpis }) {
  return (
    <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" aria-label="Key figures">
      {KPI_LIST.map(({ key, label, format }) => {
        const delta = change(kpis[key], previous[key]);
        return (
          <li key={key} className="flex flex-col gap-1 rounded-box bg-base-100 p-3 ring-1 ring-base-300">
            <span className="text-sm text-base-content/80">{label}</span>
            <span className="text-xl font-bold tabular-nums">{format(kpis[key])}</span>
            <span className={`text-xs ${delta.tone}`}>
              {delta.arrow ? <span aria-hidden="true">{delta.arrow} </span> : null}
              {delta.text}
              <span className="text-base-content/80"> (was {format(previous[key])})</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function TopProducts({ data }: { data: Dashboard }) {
  return (
    <Card title="Top products">
      {data.topProducts.length === 0 ? (
        <p>No sales in this period.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col" className="text-right">
                  Net sales
                </th>
                <th scope="col" className="text-right">
                  Units
                </th>
              </tr>
            </thead>
            <tbody>
              {data.topProducts.map((p) => (
                <tr key={p.productId}>
                  <th scope="row" className="font-normal">
                    {p.unlisted ? (
                      <>
                        {p.name} <span className="badge badge-neutral badge-sm">Unlisted</span>
                      </>
                    ) : (
                      <Link to={paths.product(p.productId)} className="link link-hover">
                        {p.name}
                      </Link>
                    )}
                  </th>
                  <td className="text-right tabular-nums">{money(p.netSales)}</td>
                  <td className="text-right tabular-nums">{p.units.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function hours(h: number | null): string {
  if (h === null) return 'None yet';
  if (h < 1) return `${Math.round(h * 60)} minutes`;
  return `${h} ${h === 1 ? 'hour' : 'hours'}`;
}

function Fulfilment({ data }: { data: Dashboard }) {
  const f = data.fulfilment;
  const rows: Array<[string, string]> = [
    ['Median time to accept', hours(f.medianHoursToAccept)],
    ['Median time to ship (after accepting)', hours(f.medianHoursToShip)],
    ['Shipped late', f.lateShare === null ? 'Nothing shipped yet' : `${f.shippedLate} of ${f.shipped} (${Math.round(f.lateShare * 100)}%)`],
    ['Expired before you accepted', String(f.expiredUnaccepted)],
  ];
  return (
    <Card title="Fulfilment">
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt>{term}</dt>
            <dd className="text-right font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function LowStock({ data }: { data: Dashboard }) {
  return (
    <Card title="Low stock">
      <p className="text-sm text-base-content/80">Products that sell out within {LOW_STOCK_DAYS} days at this period&apos;s pace, and sold-out ones.</p>
      {data.lowStock.length === 0 ? (
        <p>Nothing is running low.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300">
          {data.lowStock.map((p) => (
            <li key={p.productId} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium">{p.name}</span>
                <span className="block text-sm">
                  {p.stock === 0 ? (
                    <strong className="text-error">Sold out</strong>
                  ) : (
                    `${p.stock.toLocaleString('en-US')} in stock, about ${p.daysOfCover} days left`
                  )}
                </span>
              </span>
              <Link to={paths.updateProduct(p.productId)} className="btn btn-sm btn-outline" aria-label={`Restock ${p.name}`}>
                Restock
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The accountant's file: every order line placed between two days, as CSV (a plain GET form, so the browser downloads it). */
function OrdersExport({ from, to }: { from: string; to: string }) {
  const id = useId();
  const [range, setRange] = useState({ from, to });
  const isBackwards = range.from > range.to;
  return (
    <Card title="Export orders">
      <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <label className="flex flex-col gap-1" htmlFor={`${id}-from`}>
          <span className="text-sm">From</span>
          <input
            id={`${id}-from`}
            type="date"
            className="input input-sm w-40"
            value={range.from}
            max={range.to}
            onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
          />
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${id}-to`}>
          <span className="text-sm">To</span>
          <input
            id={`${id}-to`}
            type="date"
            className="input input-sm w-40"
            value={range.to}
            min={range.from}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
          />
        </label>
        {isBackwards || !range.from || !range.to ? (
          <span role="alert" className="text-sm text-error">
            Choose a start date on or before the end date.
          </span>
        ) : (
          <a className="btn btn-sm btn-primary" href={ordersCsvHref(range.from, range.to)} download>
            Download orders CSV
          </a>
        )}
      </form>
      <p className="text-sm text-base-content/80">One row per order line, dates in UTC, up to a year at a time.</p>
    </Card>
  );
}
