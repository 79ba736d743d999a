#!/usr/bin/env bash
# `npm test`: every check in order. Provisions Chromium and PostgreSQL when missing (as root),
# then type check, lint, Vitest (unit + API on PGlite and a throwaway PostgreSQL), the server's API
# tests again on a second Node LTS line (from the npm registry), web and server build, Playwright
# end-to-end in Debian's Chromium, and the resilience suite (crash, outage, shutdown, `npm start`
# under signals, fuzz at volume). Ends with one line `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
mkdir -p .tmp
rm -f .tmp/vitest.json .tmp/playwright.json .tmp/vitest-resilience.json .tmp/vitest-second-node.json
failed_steps=()

step() {
  local name=$1; shift
  echo "── $name"
  if ! "$@"; then failed_steps+=("--failed-step=$name"); echo "✗ $name failed"; fi
}

bash scripts/provision.sh || { echo "0 passed, 1 failed"; exit 1; }
step typecheck npm run --silent typecheck
step lint npx eslint . --max-warnings 0
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
step api-second-node bash scripts/test-api-on-second-node.sh --reporter=dot --reporter=json --outputFile.json=.tmp/vitest-second-node.json
step build npm run --silent build
step e2e npx playwright test -c e2e/playwright.config.ts
step resilience npx vitest run -c vitest.resilience.config.ts --reporter=default --reporter=json --outputFile.json=.tmp/vitest-resilience.json

node scripts/summarize-tests.mjs "${failed_steps[@]}"
