import { useId, useState } from 'react';
import type { DashboardPoint } from '@bulkcart/contracts/dashboard';
import { formatMoney, toCents } from '@bulkcart/contracts/money';

const WIDTH = 600;
const HEIGHT = 200;

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A bucket's name as people say it: "Mar 12", "Week of Mar 9", "Mar 2026". */
export function bucketLabel(start: string, bucket: 'day' | 'week' | 'month'): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (bucket === 'month') return monthLabel.format(date);
  return bucket === 'week' ? `Week of ${dayLabel.format(date)}` : dayLabel.format(date);
}

/**
 * Net sales per bucket as plain SVG bars (no chart library: decision 019). The picture is one image
 * with a summary for screen readers; the same figures are one click away as a table, and as CSV.
 */
export function SalesChart({ points, bucket, csvHref }: { points: DashboardPoint[]; bucket: 'day' | 'week' | 'month'; csvHref: string }) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const max = Math.max(1, ...points.map((p) => p.netSales));
  const total = points.reduce((sum, p) => sum + toCents(p.netSales), 0);
  const best = points.reduce<DashboardPoint | null>((top, p) => (p.netSales > (top?.netSales ?? 0) ? p : top), null);
  const slot = WIDTH / Math.max(points.length, 1);
  const barW = slot * 0.7;
  const first = points[0];
  const last = points.at(-1);
  const summary = `Net sales by ${bucket}: ${formatMoney(total)} in all${best ? `; highest ${formatMoney(toCents(best.netSales))} on ${bucketLabel(best.start, bucket)}` : ''}.`;

  return (
    <div className="flex flex-col gap-3">
      {/* Bars only in the SVG, stretched to the box; the words are HTML, so they stay readable on a phone. */}
      <div className="flex flex-col gap-1" role="img" aria-label={summary}>
        <span className="text-xs text-base-content/80" aria-hidden="true">
          {formatMoney(total === 0 ? 0 : toCents(max))}
        </span>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full md:h-56" aria-hidden="true">
          {points.map((p, i) => {
            const h = (p.netSales / max) * HEIGHT;
            return <rect key={p.start} x={i * slot + (slot - barW) / 2} y={HEIGHT - h} width={barW} height={h} className="fill-primary" />;
          })}
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} strokeWidth={2} vectorEffect="non-scaling-stroke" className="stroke-base-content/40" />
        </svg>
        <div className="flex justify-between text-xs text-base-content/80" aria-hidden="true">
          <span>{first ? bucketLabel(first.start, bucket) : ''}</span>
          <span>{last && last !== first ? bucketLabel(last.start, bucket) : ''}</span>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-sm btn-outline" aria-expanded={showTable} aria-controls={tableId} onClick={() => setShowTable((v) => !v)}>
          {showTable ? 'Hide table' : 'Show as table'}
        </button>
        <a className="btn btn-sm btn-outline" href={csvHref} download>
          Download CSV
        </a>
      </div>
      <div id={tableId} hidden={!showTable} className="overflow-x-auto">
        <table className="table table-sm">
          <caption className="sr-only">Net sales and orders by {bucket}</caption>
          <thead>
            <tr>
              <th scope="col">{bucket === 'day' ? 'Day' : bucket === 'week' ? 'Week' : 'Month'}</th>
              <th scope="col" className="text-right">
                Net sales
              </th>
              <th scope="col" className="text-right">
                Orders
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.start}>
                <th scope="row" className="font-normal">
                  {bucketLabel(p.start, bucket)}
                </th>
                <td className="text-right tabular-nums">{formatMoney(toCents(p.netSales))}</td>
                <td className="text-right tabular-nums">{p.orders}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
