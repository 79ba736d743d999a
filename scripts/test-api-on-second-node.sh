#!/usr/bin/env bash
# The server's API tests (Vitest, PGlite and a throwaway PostgreSQL) on the second supported Node line
# (scripts/test-node-lines.mjs: the line the whole suite does not run on, from the npm registry when
# the machine lacks it), so a change that breaks either line fails `npm test`.
# docs/decisions/010-production-runtime.md says why these two.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(node scripts/test-node-lines.mjs | awk '$1 == "api" { print $2 }')
echo "Server API tests on Node $("$binary" --version) (the machine's is $(node --version))"
# Vitest's workers are forked from process.execPath: they run on the same Node.
# Arguments are Vitest's: file filters (default: every server test) and reporter options. The fuzz
# sample runs here on PGlite as it runs in the Vitest step on PostgreSQL: once per database.
filters=()
for arg in "$@"; do [[ $arg == -* ]] || filters+=("$arg"); done
[ ${#filters[@]} -gt 0 ] || set -- apps/server "$@"
# PGlite on this line: `npm test`'s Vitest step ran every API test on PostgreSQL on the other line, and
# what differs between Node lines (WASM, streams, crypto, fs) is what PGlite and the server exercise;
# the PostgreSQL-only race suites run here too. TEST_DATABASES=pglite,postgres brings back both.
TEST_DATABASES=${TEST_DATABASES:-pglite} PATH="$(dirname "$binary"):$PATH" "$binary" node_modules/vitest/vitest.mjs run "$@"
