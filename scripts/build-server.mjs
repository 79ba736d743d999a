// `npm run build:server`: compiles the server to one ES module, apps/server/dist/server.js, so
// production runs plain `node` on JavaScript with no TypeScript loader or esbuild service beside it.
// Our own code (the server and the shared contracts, which ship as TypeScript) is bundled; every
// npm dependency stays an import resolved from node_modules at run time, as it would be without a
// bundler (PGlite, for one, loads its WASM files from its own package folder).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const { dependencies } = JSON.parse(readFileSync(`${serverDir}package.json`, 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !name.startsWith('@bulkcart/'))
  .flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints: [`${serverDir}src/server.ts`],
  outfile: `${serverDir}dist/server.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: true,
  // Stack traces in the error log point at the TypeScript lines.
  sourcesContent: false,
  logLevel: 'warning',
});
