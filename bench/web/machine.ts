import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { REPO_ROOT } from './paths.ts';
import { CHROMIUM_PATH } from './lighthouse-run.ts';

export interface RunContext {
  date: string;
  machine: string;
  node: string;
  chromium: string;
  lighthouse: string;
  commit: string;
}

function readCommand(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function readCpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'unknown CPU';
  } catch {
    return os.cpus()[0]?.model ?? 'unknown CPU';
  }
}

/** `uptime`'s load averages: how busy the shared machine was, which moves TBT and the score. */
export function readLoad(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
}

export function describeRunContext(): RunContext {
  const commit = readCommand('git', ['rev-parse', '--short', 'HEAD']);
  const isDirty = readCommand('git', ['status', '--porcelain', '--untracked-files=no']) !== '';
  const lighthouseVersion = (JSON.parse(readFileSync(`${REPO_ROOT}/node_modules/lighthouse/package.json`, 'utf8')) as { version: string }).version;
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: `${readCpuModel()}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, ${os.type()} ${os.release()}`,
    node: process.version,
    chromium: readCommand(CHROMIUM_PATH, ['--version']),
    lighthouse: lighthouseVersion,
    commit: isDirty ? `${commit} (with uncommitted changes)` : commit,
  };
}
