// `npm run build:server`: compiles the server to one ES module, apps/server/dist/server.js, so
// production runs plain `node` on JavaScript with no TypeScript loader or esbuild service beside it.
//
// The npm dependencies are bundled too (docs/decisions/010-production-runtime.md): resolving and
// loading some 1,500 separate module files from node_modules cost about 1.5 s of CPU at every start,
// more than half of a start on PGlite, where a process manager restarting a crashed server waits.
// The few packages that read their own files at run time, found from their own folder, stay imports
// resolved from node_modules:
const READS_ITS_OWN_FILES = [
  '@electric-sql/pglite', // its WASM and data files
  '@fastify/swagger', // its package.json
  '@fastify/swagger-ui', // the reference page's static files
  'pino', // a log transport's worker file (none is configured, but the path is taken at load)
  'thread-stream',
];
// pg requires the native binding only when asked for it; it is not installed.
const OPTIONAL_NATIVE = ['pg-native'];
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const external = [...READS_ITS_OWN_FILES, ...OPTIONAL_NATIVE].flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints: [`${serverDir}src/server.ts`],
  outfile: `${serverDir}dist/server.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  // CommonJS dependencies inside an ES module bundle still call `require` for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  sourcemap: true,
  // Stack traces in the error log point at the TypeScript lines.
  sourcesContent: false,
  logLevel: 'warning',
});
