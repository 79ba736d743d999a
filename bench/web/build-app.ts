import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WEB_APP_DIR } from './paths.ts';

/**
 * Builds the web app into a folder of its own, so the benchmark never measures (or overwrites) a
 * stale apps/web/dist or another checkout's build.
 */
export function buildWebApp(): string {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'bulkcart-bench-web-dist-'));
  const result = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: WEB_APP_DIR,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
  return outDir;
}
