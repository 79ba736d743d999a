#!/usr/bin/env bash
# The server's API tests (Vitest, PGlite and a throwaway PostgreSQL) on a second Node LTS line, from
# the npm registry, beside the machine's own Node that runs the whole suite: a change that breaks
# either fails `npm test`. docs/decisions/010-production-runtime.md says why these two.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(node -p "require('./package.json').bulkcart.secondNode")
binary=$(bash scripts/registry-node.sh "$version")
echo "Server API tests on Node $("$binary" --version) (the machine's is $(node --version))"
# Vitest's workers are forked from process.execPath: they run on the same second Node.
# Arguments are Vitest's: file filters (default: every server test) and reporter options.
filters=()
for arg in "$@"; do [[ $arg == -* ]] || filters+=("$arg"); done
[ ${#filters[@]} -gt 0 ] || set -- apps/server "$@"
PATH="$(dirname "$binary"):$PATH" "$binary" node_modules/vitest/vitest.mjs run "$@"
