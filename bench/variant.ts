/**
 * A throwaway copy of the server to measure beside this checkout's (`npm run bench:api --
 * --server-root=OUT`): apps/server/src copied, everything else (node_modules, packages, migrations)
 * linked to this checkout. The checkout itself and its git state are never touched.
 *
 *   node --import tsx bench/variant.ts --out=/tmp/bulkcart-before --products-from=<commit>
 *       the products module as it was at <commit> (the "before" rows of docs/benchmarks-history.md)
 *   node --import tsx bench/variant.ts --out=/tmp/bulkcart-what-if --patch=change.patch
 *       a change measured before it is written properly (e.g. `git diff > change.patch`), applied to a copy
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from './lib/processes.ts';

const PRODUCTS = 'apps/server/src/modules/products';

function copyServer(out: string): void {
  if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'apps/server'), { recursive: true });
  cpSync(path.join(REPO_ROOT, 'package.json'), path.join(out, 'package.json'));
  cpSync(path.join(REPO_ROOT, 'apps/server/package.json'), path.join(out, 'apps/server/package.json'));
  cpSync(path.join(REPO_ROOT, 'apps/server/src'), path.join(out, 'apps/server/src'), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(out, 'node_modules'));
  symlinkSync(path.join(REPO_ROOT, 'packages'), path.join(out, 'packages'));
  symlinkSync(path.join(REPO_ROOT, 'apps/server/migrations'), path.join(out, 'apps/server/migrations'));
  if (existsSync(path.join(REPO_ROOT, 'apps/server/node_modules'))) {
    symlinkSync(path.join(REPO_ROOT, 'apps/server/node_modules'), path.join(out, 'apps/server/node_modules'));
  }
}

/** Replaces the products module by its files at `commit` (read with `git show`, which changes nothing). */
function useProductsFrom(out: string, commit: string): void {
  const listed = execFileSync('git', ['ls-tree', '--name-only', commit, `${PRODUCTS}/`], { cwd: REPO_ROOT, encoding: 'utf8' });
  const target = path.join(out, PRODUCTS);
  for (const file of readdirSync(target)) rmSync(path.join(target, file));
  for (const file of listed.split('\n').filter(Boolean)) {
    writeFileSync(path.join(out, file), execFileSync('git', ['show', `${commit}:${file}`], { cwd: REPO_ROOT }));
  }
}

function main(): void {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'products-from': { type: 'string' }, patch: { type: 'string' } } });
  if (!values.out) throw new Error('usage: --out=/tmp/folder [--products-from=<commit>] [--patch=file]');
  const out = path.resolve(values.out);
  if (out === REPO_ROOT || REPO_ROOT.startsWith(`${out}${path.sep}`)) throw new Error('--out must be a folder outside the checkout');
  copyServer(out);
  if (values['products-from']) useProductsFrom(out, values['products-from']);
  if (values.patch) execFileSync('patch', ['-p1', '--forward', '-i', path.resolve(values.patch)], { cwd: out, stdio: 'inherit' });
  console.log(`server copy ready: npm run bench:api -- --server-root=${out}`);
}

main();
