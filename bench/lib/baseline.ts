import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './processes.ts';

/**
 * An earlier commit of the product, ready to run beside this checkout (`bench:api --compare=<commit>`):
 * its files from `git archive` (which changes nothing in this repository's git state) in a folder of
 * the temp directory, this checkout's installed packages linked in while its package-lock.json is the
 * same (else its own, from `npm ci`), and its server compiled as that commit compiles it. Kept between
 * runs, keyed by the full commit hash.
 */
export interface Baseline {
  commit: string;
  shortCommit: string;
  root: string;
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
}

const NESTED_MODULES = ['apps/server/node_modules', 'apps/web/node_modules', 'packages/contracts/node_modules'];
/** npm's links to the workspaces (`node_modules/@bulkcart/contracts -> ../../packages/contracts`). */
const WORKSPACE_SCOPE = '@bulkcart';
/** Marks a node_modules folder of links made here, as against the commit's own `npm ci`. */
const LINKED_MARKER = '.linked-from-checkout';
/** Written last: a folder without it is extracted again. (Named anew when what a baseline holds changed.) */
const READY_MARKER = '.bench-baseline-ready-2';

function sameLockfile(root: string): boolean {
  return readFileSync(path.join(root, 'package-lock.json'), 'utf8') === readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8');
}

function isLinked(root: string): boolean {
  return existsSync(path.join(root, 'node_modules', LINKED_MARKER));
}

/**
 * This checkout's installed packages, each linked into the commit's own node_modules, except the
 * workspaces: those link to the commit's own folders, as npm links them. (Linking the whole folder
 * would resolve `@bulkcart/contracts` to this checkout's contracts, and the baseline would run this
 * checkout's pricing and schemas.)
 */
function linkDependencies(root: string): void {
  const own = path.join(root, 'node_modules');
  mkdirSync(own, { recursive: true });
  for (const entry of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry === WORKSPACE_SCOPE) continue;
    symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(own, entry));
  }
  const scope = path.join(REPO_ROOT, 'node_modules', WORKSPACE_SCOPE);
  mkdirSync(path.join(own, WORKSPACE_SCOPE));
  for (const name of readdirSync(scope)) {
    // npm's own links are relative to the scope folder; read in the commit's folder, they name its workspaces.
    symlinkSync(readlinkSync(path.join(scope, name)), path.join(own, WORKSPACE_SCOPE, name));
  }
  for (const folder of NESTED_MODULES) {
    if (existsSync(path.join(REPO_ROOT, folder)) && existsSync(path.dirname(path.join(root, folder))))
      symlinkSync(path.join(REPO_ROOT, folder), path.join(root, folder));
  }
  writeFileSync(path.join(own, LINKED_MARKER), `${REPO_ROOT}\n`);
}

function unlinkDependencies(root: string): void {
  rmSync(path.join(root, 'node_modules'), { recursive: true, force: true });
  for (const folder of NESTED_MODULES) {
    const at = path.join(root, folder);
    if (lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(at);
  }
}

/**
 * The commit's dependencies: this checkout's packages linked while both lockfiles are the same; its own
 * (`npm ci`) once they differ, checked on every run, since this checkout's may change after the copy was
 * made.
 */
function provideDependencies(root: string, shortCommit: string, log: (message: string) => void): void {
  const linked = isLinked(root);
  const hasOwn = !linked && existsSync(path.join(root, 'node_modules'));
  if (sameLockfile(root)) {
    if (!linked && !hasOwn) linkDependencies(root);
    return;
  }
  if (hasOwn) return;
  if (linked) unlinkDependencies(root);
  log(`compare: ${shortCommit} has other dependencies than this checkout; npm ci in ${root}`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

export function prepareBaseline(revision: string, log: (message: string) => void): Baseline {
  const commit = git(['rev-parse', '--verify', `${revision}^{commit}`]);
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`not a commit: ${revision}`);
  const shortCommit = commit.slice(0, 7);
  const root = path.join(os.tmpdir(), `bulkcart-baseline-${commit}`);
  const ready = path.join(root, READY_MARKER);
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
