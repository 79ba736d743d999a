#!/usr/bin/env bash
# Installs what the tests need on a fresh machine: Debian's Chromium (the browser for Lighthouse, and
# its headless shell for Playwright), PostgreSQL ≥ 15 and PgBouncer (scripts/local-cluster.sh).
# Needs root for apt-get; without root it says what is missing and stops.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/pgbouncer ] || command -v pgbouncer >/dev/null 2>&1 || missing+=(pgbouncer)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "Missing: ${missing[*]}. Install them (sudo apt-get install -y ${missing[*]}) or run the tests as root." >&2
  exit 1
fi
echo "[provision] installing ${missing[*]} with apt-get…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" fonts-dejavu-core >/dev/null
# Debian starts a cluster on install; the tests run their own throwaway cluster instead.
command -v pg_ctlcluster >/dev/null 2>&1 && (pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | while read -r v c; do pg_ctlcluster "$v" "$c" stop || true; done) || true
