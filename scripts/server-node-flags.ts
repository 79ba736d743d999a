/**
 * The Node flags the server runs with wherever it runs as production runs it: `npm start`
 * (package.json), the README's service command, scripts/local-cluster.sh, the benchmarks, and the
 * end-to-end and crash tests that start the compiled server. They bound V8's heap: a 512 MB old space
 * and 16 MB semi-spaces. With V8's defaults on a large machine (a ~4 GB ceiling, semi-spaces that grow
 * to 64 MB under a high allocation rate) a catalog import's garbage took the server's RSS up by some
 * 250 MiB; with these, by 20–43 (docs/decisions/026-server-heap-bounds.md). package.json and the
 * shell script cannot import this list: apps/server/test/docs/server-flags.test.ts checks they spell
 * it the same.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-old-space-size=512', '--max-semi-space-size=16'];
