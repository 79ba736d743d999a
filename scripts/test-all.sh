#!/usr/bin/env bash
# `npm test`: every check in order. Provisions Chromium and PostgreSQL when missing (as root),
# then type check, lint, Vitest (unit + the API tests on a throwaway PostgreSQL), the server's API
# tests on PGlite on the other supported Node line, web and server build, Playwright end-to-end in
# Debian's Chromium, and the resilience suite (crash, outage, shutdown, `npm start` under signals;
# the fuzz sample runs in the Vitest step).
# Everything runs on a supported Node line (scripts/test-node-lines.mjs: the machine's own when
# `engines` accepts it, else one from the npm registry). Prints each step's time and the machine's
# load, the slowest tests, and ends with one line `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
mkdir -p .tmp
rm -f .tmp/vitest.json .tmp/playwright.json .tmp/vitest-resilience.json .tmp/vitest-second-node.json .tmp/step-times.tsv
failed_steps=()

load() { cut -d' ' -f1 /proc/loadavg; }

step() {
  local name=$1; shift
  echo "── $name"
  local started=$SECONDS load_before
  load_before=$(load)
  if ! "$@"; then failed_steps+=("--failed-step=$name"); echo "✗ $name failed"; fi
  printf '%s\t%s\t%s\t%s\n' "$name" $((SECONDS - started)) "$load_before" "$(load)" >> .tmp/step-times.tsv
}

# Steps side by side, each `name "command"`: their outputs are printed one after the other when all
# are done; each is timed on its own, and the summary counts their wall time once.
side_by_side() {
  local names=() pids=() load_before
  load_before=$(load)
  while [ $# -gt 0 ]; do
    names+=("$1")
    bash -c "started=\$SECONDS; ( $2 ); code=\$?; echo \$((SECONDS - started)) > .tmp/step-$1.seconds; exit \$code" > ".tmp/step-$1.log" 2>&1 &
    pids+=($!)
    shift 2
  done
  for i in "${!names[@]}"; do
    local name=${names[$i]} ok=1
    wait "${pids[$i]}" || ok=0
    echo "── $name"
    cat ".tmp/step-$name.log"
    if [ $ok -eq 0 ]; then failed_steps+=("--failed-step=$name"); echo "✗ $name failed"; fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$(cat ".tmp/step-$name.seconds")" "$load_before" "$(load)" "${names[0]}" >> .tmp/step-times.tsv
  done
}

bash scripts/provision.sh || { echo "0 passed, 1 failed"; exit 1; }
machine_node=$(node --version)
full_node=$(node scripts/test-node-lines.mjs | awk '$1 == "full" { print $2 }')
[ -x "$full_node" ] || { echo "no supported Node for the test run"; echo "0 passed, 1 failed"; exit 1; }
# Every `node`, `npm` and `npx` below runs on the chosen line.
export PATH="$(dirname "$full_node"):$PATH"
echo "Node $(node --version) runs the suite (the machine's is $machine_node)"

# tsc and ESLint each use one core: side by side, on a 2-core machine they take the time of the longer.
side_by_side typecheck "npm run --silent typecheck" lint "npm run --silent lint"
# Each API test runs once per database and once per Node line: on PostgreSQL on this line here, on
# PGlite on the other line next (PGlite on this line is what the e2e and resilience servers run on).
step vitest env TEST_DATABASES=postgres npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
step api-second-node bash scripts/test-api-on-second-node.sh --reporter=dot --reporter=json --outputFile.json=.tmp/vitest-second-node.json
step build npm run --silent build
step e2e npx playwright test -c e2e/playwright.config.ts
# The fuzz properties ran once already (their sample in the Vitest step); their volume run is
# `npm run test:resilience` alone.
step resilience npx vitest run -c vitest.resilience.config.ts --exclude apps/server/test/resilience/fuzz-volume.test.ts --reporter=default --reporter=json --outputFile.json=.tmp/vitest-resilience.json

node scripts/summarize-tests.mjs "${failed_steps[@]}"
