// First step of `npm start`: builds the web app and the compiled server when either is missing or
// older than its sources, so a fresh clone or a `git pull` starts the code it holds. Each build runs
// as a child that has exited before the server starts: no build tool lives beside the server.
// `node scripts/build-if-stale.mjs server` builds only the server (the test suites spawn it).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (relative) => path.join(root, relative);

/** Newest modification time under the given files and folders (node_modules and dist left out). */
function newestSource(paths) {
  let newest = 0;
  const visit = (full) => {
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) return;
    if (!stat.isDirectory()) {
      newest = Math.max(newest, stat.mtimeMs);
      return;
    }
    for (const entry of readdirSync(full)) if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(full, entry));
  };
  for (const relative of paths) visit(at(relative));
  return newest;
}

function isStale(output, sources) {
  const built = statSync(at(output), { throwIfNoEntry: false });
  return !built || built.mtimeMs < newestSource(sources);
}

const contracts = ['packages/contracts/src', 'packages/contracts/package.json'];
const targets = [
  {
    key: 'web',
    name: 'the web app',
    output: 'apps/web/dist/index.html',
    sources: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', ...contracts],
    command: ['npm', ['run', 'build', '-w', 'apps/web']],
  },
  {
    key: 'server',
    name: 'the server',
    output: 'apps/server/dist/server.js',
    sources: ['apps/server/src', 'apps/server/package.json', 'scripts/build-server.mjs', ...contracts],
    command: [process.execPath, [at('scripts/build-server.mjs')]],
  },
];

const only = process.argv.slice(2);
for (const target of targets) {
  if (only.length > 0 && !only.includes(target.key)) continue;
  if (!isStale(target.output, target.sources)) continue;
  console.log(`Building ${target.name} (${existsSync(at(target.output)) ? 'sources changed' : 'first start'})…`);
  const [command, args] = target.command;
  execFileSync(command, args, { cwd: root, stdio: 'inherit' });
}
