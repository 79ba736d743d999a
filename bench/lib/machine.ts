import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { REPO_ROOT } from './processes.ts';

export interface Machine {
  when: string;
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  commit: string;
  /** Uncommitted changes in the checkout when the run started. */
  dirty: boolean;
  /** `uptime`'s 1, 5 and 15 minute load averages: other work sharing the machine. */
  loadAverages: number[];
  uptime: string;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function readCpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  } catch {
    return os.cpus()[0]?.model ?? 'unknown';
  }
}

function readUptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
}

export function describeMachine(when: string): Machine {
  return {
    when,
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    cpuModel: readCpuModel(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    loadAverages: os.loadavg().map((l) => Math.round(l * 100) / 100),
    uptime: readUptime(),
  };
}
