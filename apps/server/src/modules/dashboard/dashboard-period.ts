import { toIsoDate, type DashboardPeriod } from '@bulkcart/contracts';

/** A stretch of whole days in the business time zone (UTC): `from` included, `until` excluded. */
export interface DayRange {
  from: string;
  until: string;
}

export interface PeriodRanges {
  current: DayRange;
  previous: DayRange;
  /** The chart's bucket: a day, a week from Monday, a month. */
  bucket: 'day' | 'week' | 'month';
  /** Days in the current period (the divisor of the sales rate). */
  days: number;
}

const DAY_MS = 86_400_000;

function addDays(isoDate: string, days: number): string {
  return toIsoDate(new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS));
}

function addMonths(isoDate: string, months: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  // Day 1 never overflows into the next month; the dashboard only shifts first days and "today".
  const day = d.getUTCDate();
  const shifted = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, 0)).getUTCDate();
  shifted.setUTCDate(Math.min(day, lastDay));
  return toIsoDate(shifted);
}

const SPAN_DAYS: Record<Exclude<DashboardPeriod, '12m'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

/**
 * The period ending today and the one before it. 7d, 30d and 90d are that many days up to and with
 * today, and the previous period is the same number of days just before. 12m is this month and the 11
 * before it (so the chart's months are whole calendar months), and the previous period is the same
 * stretch a year earlier (so a month not over yet is compared with the same days of a year ago).
 */
export function periodRanges(period: DashboardPeriod, now: Date): PeriodRanges {
  const today = toIsoDate(now);
  const until = addDays(today, 1);
  if (period === '12m') {
    const from = addMonths(`${today.slice(0, 7)}-01`, -11);
    const days = Math.round((Date.parse(until) - Date.parse(from)) / DAY_MS);
    return { current: { from, until }, previous: { from: addMonths(from, -12), until: addMonths(until, -12) }, bucket: 'month', days };
  }
  const days = SPAN_DAYS[period];
  const from = addDays(until, -days);
  return { current: { from, until }, previous: { from: addDays(from, -days), until: from }, bucket: period === '90d' ? 'week' : 'day', days };
}

/** The last day of a range, for the answer (`until` is the day after). */
export function lastDay(range: DayRange): string {
  return addDays(range.until, -1);
}

/** The first day of the month a day falls in. */
export const startOfMonth = (isoDate: string): string => `${isoDate.slice(0, 7)}-01`;

/** A range cut where the monthly rollups can serve it: whole months, and the partial days on either side. */
export interface MonthSplit {
  /** The whole calendar months inside the range (empty when `from` = `until`). */
  months: DayRange;
  /** The days before the first whole month and after the last one (either may be empty). */
  edges: [DayRange, DayRange];
}

export function splitByMonths(range: DayRange): MonthSplit {
  const first = range.from === startOfMonth(range.from) ? range.from : addMonths(startOfMonth(range.from), 1);
  const last = startOfMonth(range.until);
  if (first >= last) return { months: { from: range.from, until: range.from }, edges: [range, { from: range.until, until: range.until }] };
  return {
    months: { from: first, until: last },
    edges: [
      { from: range.from, until: first },
      { from: last, until: range.until },
    ],
  };
}
