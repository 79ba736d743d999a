import type { Machine } from './machine.ts';
import type { ReadRow } from '../parts/read-ceiling.ts';
import type { OrdersRow } from '../parts/orders.ts';
import type { ScaleRun } from '../parts/catalog-scale.ts';
import type { SearchRun } from '../parts/search.ts';
import type { ProcessesResult } from '../parts/processes.ts';
import { describeCarts, type CheckoutRow } from '../parts/checkout.ts';
import type { CatalogImportRow } from '../parts/catalog-import.ts';
import type { ClusterResult } from '../parts/cluster.ts';
import type { LullRow } from '../parts/lull.ts';
import type { StockCheck } from './order-floor.ts';
import type { CompareResult } from '../parts/compare.ts';
import type { ProfileSummary } from './cpu-profile.ts';
import type { StatementLine } from './pg-statements.ts';

export interface Report {
  machine: Machine;
  machineAfter?: Machine;
  options: Record<string, unknown>;
  read?: ReadRow[];
  orders?: OrdersRow[];
  scale?: ScaleRun[];
  search?: SearchRun[];
  processes?: ProcessesResult;
  checkout?: CheckoutRow[];
  imports?: CatalogImportRow[];
  cluster?: ClusterResult;
  lull?: LullRow;
  compare?: CompareResult;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '–');
const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–');
const mib = (n: number) => (Number.isFinite(n) ? `${Math.round(n)}` : '–');
const yes = (ok: boolean) => (ok ? 'yes' : '**NO**');

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function renderMachine(report: Report): string {
  const m = report.machine;
  const after = report.machineAfter;
  return [
    `- date: ${m.date}`,
    `- machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}`,
    `- commit: ${m.commit}${m.dirty ? ' plus uncommitted changes' : ''}`,
    `- \`uptime\` before: ${m.uptime}`,
    ...(after ? [`- \`uptime\` after: ${after.uptime}`] : []),
    `- options: ${JSON.stringify(report.options)}`,
    ...(report.options.serverRoot ? [`- server measured: the copy at ${String(report.options.serverRoot)} (bench/variant.ts), not this checkout`] : []),
  ].join('\n');
}

function renderRead(rows: ReadRow[]): string {
  return table(
    [
      'database',
      'endpoint',
      'bytes',
      'ceiling req/s',
      'ours req/s',
      'ratio',
      'ours p50 ms',
      'ours p99 ms',
      'ceiling p99 ms',
      'CPU µs/answer ceiling → ours',
      'CPU ratio',
      'RSS MiB rest → peak',
    ],
    rows.map((r) => [
      r.database,
      r.endpoint,
      int(r.bytes),
      int(r.ceiling.okPerSecond),
      int(r.ours.okPerSecond),
      pct(r.ratio),
      ms(r.ours.p50),
      ms(r.ours.p99),
      ms(r.ceiling.p99),
      `${int(r.ceilingCpuUs)} → ${int(r.oursCpuUs)}`,
      pct(r.ceilingCpuUs / r.oursCpuUs),
      `${mib(r.restRssMiB)} → ${mib(r.peakRssMiB)}`,
    ]),
  );
}

function ordersVersus(check: StockCheck): string {
  const extra = check.ordersInDatabase - check.placed;
  const ok = extra >= 0 && extra <= check.cutOffAtMost;
  return `${yes(ok)}: ${int(check.ordersInDatabase)} vs ${int(check.placed)}${extra > 0 ? ` (+${extra} cut off in flight)` : ''}`;
}

function renderOrders(rows: OrdersRow[]): string {
  return table(
    [
      'database',
      'buyers',
      'orders/s',
      'p50 ms',
      'p99 ms',
      'CPU µs/order (server + database)',
      '409 sold out',
      'other non-2xx / errors',
      'orders in DB vs 201s',
      'oversold',
      'stock + sold = initial',
      'every order notified + e-mail queued',
      'RSS MiB rest → peak',
    ],
    rows.map((r) => {
      const other = Object.entries(r.load.statusCounts)
        .filter(([code]) => code !== '201' && code !== '409')
        .reduce((s, [, n]) => s + n, 0);
      return [
        r.database,
        String(r.buyers),
        int(r.ordersPerSecond),
        ms(r.load.p50),
        ms(r.load.p99),
        `${int(r.cpuUsPerOrder)} (${int(r.serverCpuUsPerOrder)} + ${int(r.databaseCpuUsPerOrder)})`,
        int(r.load.statusCounts['409'] ?? 0),
        `${int(other)} / ${int(r.load.errors)}`,
        ordersVersus(r.check),
        r.check.oversold === 0 ? 'none' : `**${r.check.oversold} products**`,
        yes(r.check.unbalanced === 0),
        r.check.unnotified === 0 ? 'yes' : `**NO: ${int(r.check.unnotified)} orders**`,
        `${mib(r.restRssMiB)} → ${mib(r.peakRssMiB)}`,
      ];
    }),
  );
}

function renderProfile(title: string, p: ProfileSummary, units: number, unit: string): string[] {
  const perUnit = (msTotal: number) => int((msTotal * 1000) / Math.max(1, units));
  const lines = (head: string, list: ProfileSummary['byPlace']) =>
    table(
      [head, 'ms', 'share of busy', `µs/${unit}`],
      list.map((l) => [`\`${l.name.replace(/\|/g, '\\|')}\``, int(l.ms), pct(l.share), perUnit(l.ms)]),
    );
  return [
    `#### ${title} (main thread busy ${int(p.busyMs)} of ${int(p.windowMs)} ms, ${perUnit(p.busyMs)} µs per ${unit})\n`,
    lines('self time by place', p.byPlace.slice(0, 15)),
    '',
    lines('on the stack (inclusive), by place', p.inclusiveByPlace.slice(0, 15)),
    '',
    lines('self time by function', p.selfTop.slice(0, 20)),
    '',
    lines('on the stack (inclusive), by function', p.inclusiveTop.slice(0, 25)),
    '',
  ];
}

function renderReadProfiles(rows: ReadRow[]): string {
  return rows
    .flatMap((r) => (r.profile ? renderProfile(`${r.database}, ${r.endpoint}: server CPU profile of our runs`, r.profile, r.ours.responses, 'answer') : []))
    .join('\n');
}

function renderProfiles(rows: OrdersRow[]): string {
  const parts: string[] = [];
  for (const r of rows) {
    const p = r.profile;
    if (!p) continue;
    parts.push(...renderProfile(`${r.database}: server CPU profile of the measured run`, p, r.load.statusCounts['201'] ?? 0, 'order'));
  }
  return parts.join('\n');
}

function renderCheckoutProfiles(rows: CheckoutRow[]): string {
  return rows
    .flatMap((r) => (r.profile ? renderProfile(`${r.database}: server CPU profile of the timed checkouts`, r.profile, r.checkouts, 'checkout') : []))
    .join('\n');
}

/** One run's statements (pg_stat_statements), each per `unit` (an order written, a checkout). */
function renderStatementTable(title: string, statements: StatementLine[], units: number, unit: string, roundTrips: string): string {
  const per = Math.max(1, units);
  const totalMs = statements.reduce((s, l) => s + l.totalMs, 0);
  const planMs = statements.reduce((s, l) => s + l.planMs, 0);
  return [
    `#### ${title}: statements (pg_stat_statements) per ${unit} (${int(per)} of them): ${roundTrips} round trips; ${int((totalMs * 1000) / per)} µs of execution (row-lock waits included) and ${int((planMs * 1000) / per)} µs of planning\n`,
    table(
      [`per ${unit}`, 'exec µs per call', 'plan µs per call', 'sent by', 'statement'],
      statements
        .filter((l) => l.calls / per >= 0.01)
        .map((l) => [
          (l.calls / per).toFixed(2),
          int((l.totalMs * 1000) / Math.max(1, l.calls)),
          int((l.planMs * 1000) / Math.max(1, l.calls)),
          l.toplevel ? 'server' : 'inside another (a trigger, a foreign-key check)',
          `\`${l.query.slice(0, 160).replace(/\|/g, '\\|')}${l.query.length > 160 ? '…' : ''}\``,
        ]),
    ),
    '',
  ].join('\n');
}

function renderStatements(rows: OrdersRow[]): string {
  return rows
    .flatMap((r) =>
      r.statements ? [renderStatementTable(r.database, r.statements, r.ordersCounted ?? 0, 'order written', (r.statementsPerOrder ?? NaN).toFixed(1))] : [],
    )
    .join('\n');
}

function renderCheckoutStatements(rows: CheckoutRow[]): string {
  return rows
    .flatMap((r) => {
      if (!r.statements) return [];
      const roundTrips = r.statements.filter((s) => s.toplevel).reduce((sum, s) => sum + s.calls, 0) / Math.max(1, r.checkouts);
      return [renderStatementTable(`${r.database}, the cart's fill and read included`, r.statements, r.checkouts, 'checkout', roundTrips.toFixed(1))];
    })
    .join('\n');
}

function renderScale(runs: ScaleRun[]): string {
  const parts: string[] = [];
  for (const database of [...new Set(runs.map((r) => r.database))]) {
    const mine = runs.filter((r) => r.database === database);
    const labels = mine[0]?.lines.map((l) => l.label) ?? [];
    parts.push(`#### ${database}\n`);
    parts.push(
      table(
        ['query', ...mine.flatMap((r) => [`${int(r.size)}: p50 ms`, `${int(r.size)}: p99 ms`])],
        labels.map((label, i) => [
          label.replace(/[\d,]+ items deep/, 'deep'),
          ...mine.flatMap((r) => [ms(r.lines[i]?.latency.p50 ?? NaN), ms(r.lines[i]?.latency.p99 ?? NaN)]),
        ]),
      ),
    );
    parts.push(
      '',
      mine
        .map(
          (r) =>
            `- ${int(r.size)} products: seeded ${int(r.seeded.products)} products and ${int(r.seeded.orders)} orders in ${r.seeded.seconds.toFixed(1)} s; deep category page at ${int(r.categoryDepth)} items; server RSS ${mib(r.restRssMiB)} MiB at rest, ${mib(r.afterRssMiB)} MiB after`,
        )
        .join('\n'),
      '',
    );
  }
  return parts.join('\n');
}

function renderExplains(runs: ScaleRun[]): string {
  const biggest = [...runs].filter((r) => r.explained.length > 0).sort((a, b) => b.size - a.size)[0];
  if (!biggest) return '';
  const blocks = biggest.explained.map(
    (e) => `**${e.label}**\n\n\`\`\`sql\n${e.sql}\n-- params: ${JSON.stringify(e.params)}\n\`\`\`\n\n\`\`\`\n${e.plan}\n\`\`\``,
  );
  return [`EXPLAIN (ANALYZE, BUFFERS) on ${biggest.database} with ${int(biggest.size)} products:`, ...blocks].join('\n\n');
}

/** Search latency per database side by side, then every statement's plan per database. */
function renderSearch(runs: SearchRun[]): string {
  const first = runs[0];
  if (!first) return '';
  const compared = first.compareRoot !== undefined;
  const cells = (r: SearchRun, i: number): string[] => {
    const line = r.lines[i];
    if (!line) return [];
    const now = [ms(line.latency.p50), ms(line.latency.p99), line.load.toFixed(2)];
    return compared && line.before ? [ms(line.before.latency.p50), ms(line.before.latency.p99), line.before.load.toFixed(2), ...now] : now;
  };
  const rows = first.lines.map((line, i) => [line.label, ...runs.flatMap((r) => cells(r, i))]);
  const columns = (d: string): string[] => [`${d} p50 ms`, `${d} p99 ms`, `${d} load`];
  const head = ['request', ...runs.flatMap((r) => (compared ? [...columns(`${r.database} before`), ...columns(`${r.database} after`)] : columns(r.database)))];
  const seeded = runs.map((r) => `- ${r.database}: seeded ${int(r.seeded.products)} products in ${r.seeded.seconds.toFixed(1)} s`).join('\n');
  const plans = runs.flatMap((r) => [
    `#### EXPLAIN (ANALYZE, BUFFERS) on ${r.database} with ${int(r.size)} products`,
    ...r.explained.map((e) => `**${e.label}**\n\n\`\`\`sql\n${e.sql}\n-- params: ${JSON.stringify(e.params)}\n\`\`\`\n\n\`\`\`\n${e.plan}\n\`\`\``),
  ]);
  return [table(head, rows), '', seeded, '', ...plans].join('\n\n');
}

function renderProcesses(result: ProcessesResult): string {
  const rows = result.rows.map((r) => [
    String(r.processes),
    int(r.ordersPerSecond),
    ms(r.p50),
    ms(r.p99),
    int(r.cpuUsPerOrder),
    r.peakRssMiB.map(mib).join(' + '),
  ]);
  const c = result.check;
  return [
    table(['processes', 'orders/s', 'p50 ms', 'p99 ms', 'CPU µs/order', 'peak RSS MiB'], rows),
    '',
    `After both phases (warm-up included): live orders in the database vs 201 answers: ${ordersVersus(c)}; oversold products: ${c.oversold}; stock + sold = initial on every product: ${yes(c.unbalanced === 0)}; every order notified with its e-mail queued: ${yes(c.unnotified === 0)}; scarce products sold out: ${yes(c.scarceSoldOut)}. RSS at rest: ${result.restRssMiB.map(mib).join(' + ')} MiB.`,
  ].join('\n');
}

function renderCheckout(rows: CheckoutRow[]): string {
  return table(
    [
      'database',
      'checkouts',
      'lines / sellers (mean)',
      'p50 ms',
      'p99 ms',
      'mean ms',
      'CPU µs/checkout (server + database)',
      'CPU µs/line',
      'orders in DB = one per seller of each cart, books balance',
    ],
    rows.map((r) => [
      r.database,
      int(r.checkouts),
      `${r.lines.toFixed(1)} / ${r.sellers.toFixed(1)}`,
      ms(r.p50),
      ms(r.p99),
      ms(r.mean),
      `${int(r.cpuUsPerCheckout)} (${int(r.serverCpuUsPerCheckout)} + ${int(r.databaseCpuUsPerCheckout)})`,
      int(r.cpuUsPerLine),
      `${yes(r.booksBalance)} (${int(r.ordersInDatabase)} orders)`,
    ]),
  );
}

function renderImports(rows: CatalogImportRow[]): string {
  return table(
    [
      'database',
      'rows (MB)',
      'brands',
      'upload ms',
      'upload → ready ms',
      'apply ms',
      'export ms',
      'export rows/s (again)',
      'RSS at rest → peak MiB',
      'peak MiB: validate / apply / export',
    ],
    rows.map((r) => [
      r.database,
      `${int(r.rows)} (${r.megabytes.toFixed(1)})`,
      int(r.brands),
      int(r.uploadMs),
      int(r.validateMs),
      int(r.applyMs),
      int(r.exportMs),
      `${int(r.exportRowsPerSecond)} (${int(r.exportAgainRowsPerSecond)})`,
      `${mib(r.restRssMiB)} → ${mib(r.peakRssMiB)}`,
      `${mib(r.validatePeakRssMiB)} / ${mib(r.applyPeakRssMiB)} / ${mib(r.exportPeakRssMiB)}`,
    ]),
  );
}

function renderCluster(result: ClusterResult): string {
  const other = (counts: Record<string, number>, ok: string[]) =>
    Object.entries(counts)
      .filter(([code]) => !ok.includes(code))
      .reduce((s, [, n]) => s + n, 0);
  const c = result.check;
  return [
    table(
      ['catalog reads on', 'reads/s', 'p50 ms', 'p99 ms', 'non-2xx / errors'],
      result.reads.map((r) => [
        r.reads,
        int(r.load.okPerSecond),
        ms(r.load.p50),
        ms(r.load.p99),
        `${int(other(r.load.statusCounts, ['200']))} / ${int(r.load.errors)}`,
      ]),
    ),
    '',
    table(
      [
        'orders to the primary',
        'orders/s',
        'p50 ms',
        'p99 ms',
        '409 sold out',
        'other non-2xx / errors',
        'replica lag under the load: p50 / p99 / max ms (samples)',
      ],
      result.orders.map((r) => [
        r.via,
        int(r.ordersPerSecond),
        ms(r.load.p50),
        ms(r.load.p99),
        int(r.load.statusCounts['409'] ?? 0),
        `${int(other(r.load.statusCounts, ['201', '409']))} / ${int(r.load.errors)}`,
        `${int(r.lagMs.p50)} / ${int(r.lagMs.p99)} / ${int(r.lagMs.max)} (${r.lagMs.samples})`,
      ]),
    ),
    '',
    `After both order runs (warm-ups included): live orders in the database vs 201 answers: ${ordersVersus(c)}; oversold products: ${c.oversold}; stock + sold = initial on every product: ${yes(c.unbalanced === 0)}.`,
  ].join('\n');
}

function renderCompare(c: CompareResult, head: string): string {
  const figure = (n: number) => (Math.abs(n) < 2 ? n.toFixed(2) : int(n));
  const rows = c.measures.map((m) => {
    const ratio = m.this / m.base;
    const verdict = m.better === 'lower' ? (ratio < 1 ? 'better' : 'worse') : ratio > 1 ? 'better' : 'worse';
    return [
      m.measure,
      figure(m.base),
      figure(m.this),
      `**${ratio.toFixed(2)}** (${verdict})`,
      m.baseRounds.map(figure).join(' / '),
      m.thisRounds.map(figure).join(' / '),
    ];
  });
  return [
    `Base: ${c.baseCommit}; this: ${head}. ${c.rounds} rounds, each side in turn (base first in odd rounds, this first in even ones), each on its own PostgreSQL database of one cluster.`,
    '',
    table(['measure', `base ${c.baseCommit}`, 'this', 'this ÷ base', 'base per round', 'this per round'], rows),
    '',
    table(
      ['check afterwards', 'base', 'this'],
      c.checks.map((k) => [k.what, k.base, k.this]),
    ),
  ].join('\n');
}

/** Every RSS figure of the run in one place: at rest, and the peak under each load. */
function renderMemory(report: Report): string {
  const rows: string[][] = [];
  const byDatabase = new Map<string, ReadRow[]>();
  for (const r of report.read ?? []) byDatabase.set(r.database, [...(byDatabase.get(r.database) ?? []), r]);
  for (const [database, rows_] of byDatabase) {
    rows.push([database, 'at rest (demo catalog)', mib(rows_[0]?.restRssMiB ?? NaN)]);
    for (const r of rows_) rows.push([database, `reads: ${r.endpoint}`, mib(r.peakRssMiB)]);
  }
  for (const r of report.orders ?? [])
    rows.push([r.database, `orders: at rest → peak under ${r.buyers} buyers`, `${mib(r.restRssMiB)} → ${mib(r.peakRssMiB)}`]);
  for (const r of report.scale ?? [])
    rows.push([r.database, `${int(r.size)} products: at rest → after the scale queries`, `${mib(r.restRssMiB)} → ${mib(r.afterRssMiB)}`]);
  if (report.processes) {
    rows.push(['PostgreSQL', 'two processes at rest', report.processes.restRssMiB.map(mib).join(' + ')]);
    for (const r of report.processes.rows) rows.push(['PostgreSQL', `orders, ${r.processes} process(es), peak`, r.peakRssMiB.map(mib).join(' + ')]);
  }
  return rows.length > 0 ? table(['database', 'situation', 'server RSS MiB'], rows) : '';
}

function renderLull(lull: LullRow): string {
  return table(
    ['pool idle timeout', `CPU µs per order, ${lull.burstSeconds} s bursts after ${lull.lullSeconds} s quiet`, 'by round', 'p99 ms by round', 'orders placed'],
    lull.sides.map((side) => [
      side.setting,
      int(side.cpuUsPerOrder),
      side.cpuUsPerOrderByRound.map(int).join(' / '),
      side.p99MsByRound.map(ms).join(' / '),
      int(side.ordersPlaced),
    ]),
  );
}

export function renderReport(report: Report): string {
  const sections = [`## Run of ${report.machine.date.slice(0, 10)}\n`, renderMachine(report)];
  if (report.read) sections.push('\n### 1. Read ceiling (64 connections)\n', renderRead(report.read), renderReadProfiles(report.read));
  if (report.orders) sections.push('\n### 2. Orders\n', renderOrders(report.orders), renderProfiles(report.orders), renderStatements(report.orders));
  if (report.scale) sections.push('\n### 3. Catalog scale (1 connection, 300 requests each)\n', renderScale(report.scale), renderExplains(report.scale));
  if (report.processes) sections.push('\n### 4. Several processes (PostgreSQL)\n', renderProcesses(report.processes));
  if (report.search) sections.push('\n### 6. Search (1 connection, 300 requests each)\n', renderSearch(report.search));
  if (report.checkout)
    sections.push(
      `\n### 7. Checkout (1 connection, ${describeCarts(report.options.cartShapes === 'varied' ? 'varied' : 'fixed')}, only the checkout timed)\n`,
      renderCheckout(report.checkout),
      renderCheckoutProfiles(report.checkout),
      renderCheckoutStatements(report.checkout),
    );
  if (report.imports) sections.push('\n### 8. Catalog CSV import and export (create-only files)\n', renderImports(report.imports));
  if (report.cluster)
    sections.push('\n### 9. The local cluster: replica reads, PgBouncer, replica lag (scripts/local-cluster.sh)\n', renderCluster(report.cluster));
  if (report.lull) sections.push('\n### 10. Buy Now after a lull (PostgreSQL, 64 buyers, two servers in turns)\n', renderLull(report.lull));
  if (report.compare)
    sections.push(
      '\n### Comparison with an earlier commit\n',
      renderCompare(report.compare, `${report.machine.commit}${report.machine.dirty ? ' plus uncommitted changes' : ''}`),
    );
  const memory = renderMemory(report);
  if (memory) sections.push('\n### 5. Memory (VmRSS of the server process)\n', memory);
  return `${sections.join('\n')}\n`;
}
