#!/usr/bin/env bash
# BulkCart past one machine, on this machine (docs/deploy.md): a PostgreSQL primary, a streaming
# replica (pg_basebackup -R), PgBouncer in transaction pooling, two web processes and a worker, each on
# a free loopback port, each stopped by its PID. Debian's postgresql and pgbouncer packages
# (scripts/provision.sh installs them as root).
#
#   local-cluster.sh start [DIR]               the whole cluster; DIR/cluster.env says where each part is
#   local-cluster.sh stop [DIR]                stops every part by its PID and removes DIR
#   local-cluster.sh app DIR NAME ROLE [--direct] [--no-replica]
#                                              one more server process (e.g. a second worker); prints its URL.
#                                              --direct: DATABASE_URL straight to the primary, not PgBouncer;
#                                              --no-replica: every read on the primary (benchmarks compare)
#   local-cluster.sh kill DIR NAME [SIGNAL]    signals one server process (default TERM) and waits for it to end
#   local-cluster.sh replica-stop|replica-start DIR
#   local-cluster.sh pooler DIR HOST:PORT DB   PgBouncer alone in front of an existing server; prints its port
#
# The server processes inherit this script's environment (SMTP_URL, JOB_LEASE_MS, LOG_LEVEL…), with
# DATABASE_URL through PgBouncer, DATABASE_MIGRATION_URL direct to the primary and DATABASE_READ_URL on
# the replica. Run `npm run build` first (or let `start` do it when the build is stale).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

die() { echo "local-cluster: $*" >&2; exit 1; }

pg_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return; }
  done
  die "PostgreSQL is not installed: run scripts/provision.sh as root"
}

# PostgreSQL and PgBouncer refuse to run as root: they run as the postgres user.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# Waits (bounded) until a TCP port accepts connections, or the named process has died.
wait_for_port() {
  local port=$1 pid_file=$2 what=$3 i
  for i in $(seq 1 600); do
    if node -e "require('net').connect($port,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" 2>/dev/null; then return 0; fi
    if [ -n "$pid_file" ] && ! kill -0 "$(cat "$pid_file" 2>/dev/null)" 2>/dev/null; then die "$what exited during start-up (see its log)"; fi
    sleep 0.1
  done
  die "$what did not listen on port $port within 60 s"
}

prepare_dir() {
  local dir=$1
  mkdir -p "$dir/pids" "$dir/logs"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir" "$dir/logs"
  chmod 755 "$dir"
  true
}

write_env() { echo "$1=$2" >> "$DIR/cluster.env"; }
read_env() { sed -n "s/^$1=//p" "$DIR/cluster.env" | tail -1; }

PG_OPTS="-c unix_socket_directories=/tmp -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c wal_level=replica -c max_wal_senders=5 -c wal_keep_size=256MB -c hot_standby=on -c hot_standby_feedback=on"

start_postgres() {
  local data=$1 port=$2
  as_pg "$BIN/pg_ctl" -D "$data" -o "$PG_OPTS -p $port" -l "$DIR/logs/$(basename "$data").log" -w -t 60 start >/dev/null
}

start_pooler() {
  local name=$1 upstream_host=$2 upstream_port=$3 db=$4 port=$5
  command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || die "pgbouncer is not installed: run scripts/provision.sh as root"
  local conf="$DIR/$name.ini"
  echo '"postgres" ""' > "$DIR/$name-users.txt"
  # Transaction pooling: a server connection is lent for one transaction at a time (docs/deploy.md).
  cat > "$conf" <<INI
[databases]
$db = host=$upstream_host port=$upstream_port dbname=$db
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $DIR/$name-users.txt
pool_mode = transaction
default_pool_size = 20
max_client_conn = 1000
server_connect_timeout = 5
query_wait_timeout = 30
log_connections = 0
log_disconnections = 0
logfile = $DIR/logs/$name.log
pidfile = $DIR/pids/$name.pid
INI
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$conf" "$DIR/$name-users.txt" "$DIR/pids"
  as_pg "$(command -v pgbouncer || echo /usr/sbin/pgbouncer)" -d -q "$conf"
  wait_for_port "$port" "" "PgBouncer"
}

# Starts one server process in the background (its PID in DIR/pids/NAME.pid) and answers its port.
launch_app() {
  local name=$1 role=$2 port=${3:-}
  [ -n "$port" ] || port=$(free_port)
  (
    export PORT=$port HOST=127.0.0.1 PROCESS_ROLE=$role
    export DATABASE_URL DATABASE_MIGRATION_URL DATABASE_READ_URL BASE_URL TRUSTED_ORIGINS
    export SEED_DEMO=false LOG_LEVEL=${LOG_LEVEL:-warn}
    # Debian's PgBouncer (1.18) keeps no statement name across transactions: the purchase's statements
    # go unnamed (DB_NAMED_STATEMENTS, docs/deploy.md).
    export DB_NAMED_STATEMENTS=false
    # The flags of scripts/server-node-flags.ts (the heap bounds, docs/decisions/026-server-heap-bounds.md).
    exec node --max-old-space-size=512 --max-semi-space-size=16 "$ROOT/apps/server/dist/server.js" >"$DIR/logs/$name.log" 2>&1
  ) &
  echo $! > "$DIR/pids/$name.pid"
  write_env "$(echo "$name" | tr 'a-z-' 'A-Z_')_URL" "http://127.0.0.1:$port"
  echo "$port"
}

wait_for_app() {
  wait_for_port "$(read_env "$(echo "$1" | tr 'a-z-' 'A-Z_')_URL" | sed 's/.*://')" "$DIR/pids/$1.pid" "$1"
}

load_urls() {
  DATABASE_URL=$(read_env DATABASE_URL)
  DATABASE_MIGRATION_URL=$(read_env DATABASE_MIGRATION_URL)
  DATABASE_READ_URL=$(read_env DATABASE_READ_URL)
  BASE_URL=$(read_env BASE_URL)
  TRUSTED_ORIGINS=$(read_env TRUSTED_ORIGINS)
}

stop_pid() {
  local pid_file=$1 signal=${2:-TERM} pid i
  [ -f "$pid_file" ] || return 0
  pid=$(cat "$pid_file")
  if kill -0 "$pid" 2>/dev/null; then
    kill "-$signal" "$pid" 2>/dev/null || true
    for i in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pid_file"
}

command=${1:-}
case "$command" in
  start)
    DIR=${2:-/tmp/bulkcart-cluster}
    [ -e "$DIR/cluster.env" ] && die "$DIR already holds a cluster: stop it first"
    prepare_dir "$DIR"
    BIN=$(pg_bin)
    node scripts/build-if-stale.mjs
    : > "$DIR/cluster.env"
    primary_port=$(free_port)
    as_pg "$BIN/initdb" -D "$DIR/primary" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
    start_postgres "$DIR/primary" "$primary_port"
    write_env PRIMARY_PORT "$primary_port"
    as_pg "$BIN/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -qc 'CREATE DATABASE bulkcart' >/dev/null
    # The replica: a base backup of the primary that streams its WAL from then on (standby.signal, -R).
    replica_port=$(free_port)
    as_pg "$BIN/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$DIR/replica" -R -X stream -c fast
    start_postgres "$DIR/replica" "$replica_port"
    write_env REPLICA_PORT "$replica_port"
    pooler_port=$(free_port)
    start_pooler pgbouncer 127.0.0.1 "$primary_port" bulkcart "$pooler_port"
    write_env POOLER_PORT "$pooler_port"
    write_env DATABASE_URL "postgres://postgres@127.0.0.1:$pooler_port/bulkcart"
    write_env DATABASE_MIGRATION_URL "postgres://postgres@127.0.0.1:$primary_port/bulkcart"
    write_env DATABASE_READ_URL "postgres://postgres@127.0.0.1:$replica_port/bulkcart"
    web1_port=$(free_port)
    web2_port=$(free_port)
    write_env BASE_URL "http://127.0.0.1:$web1_port"
    # Every web process accepts the others' origin: a browser may be sent to any of them.
    write_env TRUSTED_ORIGINS "http://127.0.0.1:$web1_port,http://127.0.0.1:$web2_port"
    load_urls
    # Side by side: the first to start migrates, the others wait for its lock, then all listen.
    launch_app web-1 web "$web1_port" >/dev/null
    launch_app web-2 web "$web2_port" >/dev/null
    launch_app worker-1 worker >/dev/null
    for name in web-1 web-2 worker-1; do wait_for_app "$name"; done
    echo "cluster up in $DIR:"
    cat "$DIR/cluster.env"
    ;;
  app)
    DIR=${2:?DIR}; name=${3:?NAME}; role=${4:?ROLE}
    load_urls
    for flag in "${@:5}"; do
      case "$flag" in
        --direct) DATABASE_URL=$DATABASE_MIGRATION_URL ;;
        --no-replica) DATABASE_READ_URL= ;;
        *) die "unknown option $flag" ;;
      esac
    done
    launch_app "$name" "$role" >/dev/null
    wait_for_app "$name"
    read_env "$(echo "$name" | tr 'a-z-' 'A-Z_')_URL"
    ;;
  kill)
    DIR=${2:?DIR}; name=${3:?NAME}
    stop_pid "$DIR/pids/$name.pid" "${4:-TERM}"
    ;;
  replica-stop)
    DIR=${2:?DIR}; BIN=$(pg_bin)
    as_pg "$BIN/pg_ctl" -D "$DIR/replica" -m fast -w stop >/dev/null
    ;;
  replica-start)
    DIR=${2:?DIR}; BIN=$(pg_bin)
    start_postgres "$DIR/replica" "$(read_env REPLICA_PORT)"
    ;;
  pooler)
    DIR=${2:?DIR}; upstream=${3:?HOST:PORT}; db=${4:?DB}
    prepare_dir "$DIR"
    port=$(free_port)
    start_pooler pgbouncer "${upstream%:*}" "${upstream##*:}" "$db" "$port"
    echo "$port"
    ;;
  stop)
    DIR=${2:-/tmp/bulkcart-cluster}
    [ -d "$DIR" ] || exit 0
    # Servers first (they finish their requests), then the pooler, then the databases.
    for pid_file in "$DIR"/pids/*.pid; do
      [ -e "$pid_file" ] && [ "$(basename "$pid_file")" != pgbouncer.pid ] && kill -TERM "$(cat "$pid_file")" 2>/dev/null || true
    done
    for pid_file in "$DIR"/pids/*.pid; do
      [ -e "$pid_file" ] && [ "$(basename "$pid_file")" != pgbouncer.pid ] && stop_pid "$pid_file" TERM
    done
    stop_pid "$DIR/pids/pgbouncer.pid" TERM
    if [ -d "$DIR/replica" ] || [ -d "$DIR/primary" ]; then
      BIN=$(pg_bin)
      for data in "$DIR/replica" "$DIR/primary"; do
        [ -f "$data/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
      done
    fi
    rm -rf "$DIR"
    ;;
  *)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
