import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './processes.ts';

/**
 * An earlier commit of the product, ready to run beside this checkout (`bench:api --compare=<commit>`):
 * its files from `git archive` (which changes nothing in this repository's git state) in a folder of
 * the temp directory, this checkout's node_modules linked in while its package-lock.json is the same
 * (else its own, from `npm ci`), and its server compiled as that commit compiles it. Kept between runs,
 * keyed by the full commit hash.
 */
export interface Baseline {
  commit: string;
  shortCommit: string;
  root: string;
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
}

const WORKSPACE_MODULES = ['node_modules', 'apps/server/node_modules', 'apps/web/node_modules', 'packages/contracts/node_modules'];

function sameLockfile(root: string): boolean {
  return readFileSync(path.join(root, 'package-lock.json'), 'utf8') === readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8');
}

function isLinked(root: string): boolean {
  return lstatSync(path.join(root, 'node_modules'), { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

/**
 * The commit's dependencies: this checkout's node_modules linked while both lockfiles are the same;
 * its own (`npm ci`) once they differ, checked on every run, since this checkout's may change after the
 * copy was made.
 */
function provideDependencies(root: string, shortCommit: string, log: (message: string) => void): void {
  const linked = isLinked(root);
  const hasOwn = !linked && existsSync(path.join(root, 'node_modules'));
  if (sameLockfile(root)) {
    if (!linked && !hasOwn) {
      for (const folder of WORKSPACE_MODULES) {
        if (existsSync(path.join(REPO_ROOT, folder)) && existsSync(path.dirname(path.join(root, folder))))
          symlinkSync(path.join(REPO_ROOT, folder), path.join(root, folder));
      }
    }
    return;
  }
  if (hasOwn) return;
  for (const folder of WORKSPACE_MODULES) {
    const at = path.join(root, folder);
    if (lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(at);
  }
  log(`compare: ${shortCommit} has other dependencies than this checkout; npm ci in ${root}`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

export function prepareBaseline(revision: string, log: (message: string) => void): Baseline {
  const commit = git(['rev-parse', '--verify', `${revision}^{commit}`]);
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`not a commit: ${revision}`);
  const shortCommit = commit.slice(0, 7);
  const root = path.join(os.tmpdir(), `bulkcart-baseline-${commit}`);
  const ready = path.join(root, '.bench-baseline-ready');
  if (existsSync(ready)) {
    log(`compare: reusing ${root}`);
    provideDependencies(root, shortCommit, log);
    return { commit, shortCommit, root };
  }
  log(`compare: extracting ${shortCommit} into ${root}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C "$0"`, root], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  provideDependencies(root, shortCommit, log);
  // A commit from before the compiled server runs as it ran then (processes.ts serverCommand).
  if (existsSync(path.join(root, 'scripts/build-server.mjs'))) {
    log(`compare: compiling ${shortCommit}'s server`);
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  }
  writeFileSync(ready, `${commit}\n`);
  return { commit, shortCommit, root };
}
