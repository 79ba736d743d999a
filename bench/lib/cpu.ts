import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime, stime, cutime, cstime and ppid of a process from /proc/PID/stat; null when it is gone. */
function readStat(pid: number): { ppid: number; own: number; reaped: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const at = (n: number) => Number(fields[n - 3]);
    return { ppid: at(4), own: at(14) + at(15), reaped: at(16) + at(17) };
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by these processes, and by all children of `parents` (PostgreSQL's
 * backends under its postmaster, including those that have exited). CPU per request is what the
 * benchmark can compare on a machine whose other users take a varying share of the cores.
 */
export function readCpuSeconds(pids: number[], parents: number[] = []): number {
  let ticks = 0;
  for (const pid of pids) ticks += readStat(pid)?.own ?? 0;
  return (ticks + readChildrenTicks(parents)) / clockTicks();
}

/**
 * The parents' own and reaped ticks plus their live children's. A child reaped while /proc is being
 * read would be counted twice or not at all (its ticks move from its own entry to its parent's
 * reaped total), and a backend that served a whole run holds seconds of them: one round of a
 * comparison once read 217 µs per order beside rounds of 2,400–3,400. The reading is taken again
 * until no child was reaped during it.
 */
function readChildrenTicks(parents: number[]): number {
  if (parents.length === 0) return 0;
  const wanted = new Set(parents);
  const reapedAndOwn = () =>
    parents.reduce((sum, parent) => {
      const stat = readStat(parent);
      return stat ? sum + stat.own + stat.reaped : sum;
    }, 0);
  for (let attempt = 1; ; attempt++) {
    const before = reapedAndOwn();
    let children = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readStat(Number(entry));
      if (stat && wanted.has(stat.ppid)) children += stat.own;
    }
    const after = reapedAndOwn();
    // The parents' own ticks may move on between the two reads; a child reaped moves them by far more
    // than the few ticks a reading takes, but a steady reading is the only one sure to be exact.
    if (after === before || attempt === 20) return after + children;
  }
}

/** The postmaster's PID of a PostgreSQL data folder. */
export function readPostmasterPid(dataDir: string): number {
  return Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
}

/** CPU seconds `run` cost: `pids` (our servers) and the children of `parents` (PostgreSQL), apart. */
export async function measureCpu<T>(
  pids: number[],
  parents: number[],
  run: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number; serverSeconds: number; databaseSeconds: number }> {
  const server = readCpuSeconds(pids);
  const database = readCpuSeconds([], parents);
  const result = await run();
  const serverSeconds = readCpuSeconds(pids) - server;
  const databaseSeconds = readCpuSeconds([], parents) - database;
  return { result, cpuSeconds: serverSeconds + databaseSeconds, serverSeconds, databaseSeconds };
}
