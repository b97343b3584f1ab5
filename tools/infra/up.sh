#!/usr/bin/env bash
# Installs (only what is missing) and starts the infrastructure on loopback:
# FerretDB (MongoDB wire protocol) on its PostgreSQL backend (Debian's
# postgresql; FERRETDB_BACKEND=sqlite for the SQLite one), NATS with
# JetStream and Redis; installs the Schemathesis fuzzer the end-to-end
# tests run against the OpenAPI document, Debian's prometheus (promtool and
# a server the observability tests scrape the stack with), Debian's chromium
# (the dashboard's browser tests) and builds the
# Kubernetes manifest check (tools/k8s-check). Idempotent: whatever already answers is left alone. A service given
# by MONGODB_URL, NATS_URL or REDIS_URL is used as it is and not started.
# Writes the URLs to .run/infra.env for the scripts that follow.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
run_dir="$root/.run"
data_dir="${RIS_DATA_DIR:-$root/.data}"
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/referral-incentive-service"
mkdir -p "$run_dir" "$data_dir" "$cache_dir"

mongo_port="${FERRETDB_PORT:-27017}"
pg_port="${FERRETDB_PG_PORT:-54329}"
ferretdb_pool=200
# PostgreSQL pushes filters on indexed fields down and writes concurrently;
# FerretDB's SQLite backend scans every collection for any filter but _id
# and serialises all writes of a database (measured: 10-25x slower).
backend="${FERRETDB_BACKEND:-postgresql}"
nats_port="${NATS_PORT:-4222}"
redis_port="${REDIS_PORT:-6379}"

log() { printf '[infra] %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  local port=$1 name=$2 logfile=$3
  for _ in $(seq 1 150); do
    port_open "$port" && return 0
    sleep 0.2
  done
  log "$name did not start on 127.0.0.1:$port; last lines of $logfile:"
  tail -n 20 "$logfile" >&2 || true
  exit 1
}

apt_updated=""
apt_install() {
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    log "need to install $* but am not root and have no sudo; install it and run again"; exit 1
  fi
  local sudo=""; [ "$(id -u)" != 0 ] && sudo=sudo
  if [ -z "$apt_updated" ]; then $sudo apt-get update -qq >&2; apt_updated=1; fi
  log "installing $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}

# --- MongoDB: FerretDB v1 built from the Go module proxy --------------------
ferretdb_binary() {
  local src="$root/tools/ferretdb"
  local hash
  hash=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-12)
  local bin="$cache_dir/ferretdb-v1.24.2-$hash"
  if [ ! -x "$bin" ]; then
    command -v go >/dev/null || { log "Go is needed to build FerretDB (go 1.24+); install it and run again"; exit 1; }
    log "building FerretDB v1.24.2 (once; cached at $bin)"
    (cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$bin.tmp" .) >&2
    mv "$bin.tmp" "$bin"
  fi
  echo "$bin"
}

# PostgreSQL for FerretDB: our own cluster in the data directory, run as
# the postgres user (it refuses to run as root), on loopback only.
start_postgres() {
  local pgbin
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$pgbin" ]; then
    apt_install postgresql
    pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  local pgdata="$data_dir/postgres"
  local as_postgres=()
  if [ "$(id -u)" = 0 ]; then
    as_postgres=(runuser -u postgres --)
    # postgres must be able to reach its directory.
    chmod o+x "$data_dir"
  fi
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    mkdir -p "$pgdata"
    [ "$(id -u)" = 0 ] && chown postgres: "$pgdata"
    "${as_postgres[@]}" "$pgbin/initdb" -D "$pgdata" -A trust -U ferretdb -E UTF8 >"$run_dir/postgres-init.log" 2>&1 \
      || { log "initdb failed:"; tail -n 20 "$run_dir/postgres-init.log" >&2; exit 1; }
  fi
  if ! port_open "$pg_port"; then
    # synchronous_commit=off: a crash may lose the last moments of a
    # development database, never corrupt it.
    "${as_postgres[@]}" "$pgbin/pg_ctl" -D "$pgdata" -w -l "$pgdata/server.log" \
      -o "-p $pg_port -k $pgdata -c listen_addresses=127.0.0.1 -c synchronous_commit=off -c max_connections=500" start >&2
    "${as_postgres[@]}" "$pgbin/createdb" -h 127.0.0.1 -p "$pg_port" -U ferretdb ferretdb 2>/dev/null || true
    log "PostgreSQL (for FerretDB) started on 127.0.0.1:$pg_port"
  fi
  # GIN twins of FerretDB's indexes, so its filters use an index (see the file).
  local db
  for db in template1 ferretdb; do
    "$pgbin/psql" -q -X -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U ferretdb -d "$db" \
      -f "$root/tools/infra/ferretdb-pg-indexes.sql" >"$run_dir/postgres-indexes.log" 2>&1 \
      || { log "applying ferretdb-pg-indexes.sql to $db failed:"; tail -n 20 "$run_dir/postgres-indexes.log" >&2; exit 1; }
  done
  echo "$pgbin" >"$run_dir/postgres.bin"
  echo "$pgdata" >"$run_dir/postgres.data"
}

if [ -n "${MONGODB_URL:-}" ]; then
  log "MongoDB: using MONGODB_URL"
else
  if port_open "$mongo_port"; then
    log "MongoDB: something already listens on 127.0.0.1:$mongo_port; using it"
  else
    bin=$(ferretdb_binary)
    if [ "$backend" = postgresql ]; then
      start_postgres
      # FerretDB v1 runs an update as a query that keeps its connection
      # plus a transaction on a second one: with its default pool of 50,
      # 25 concurrent updates wait for each other forever (seen with 16
      # clients sending bulk updates). A larger pool keeps that out of reach.
      backend_args=(-handler postgresql -postgresql-url "postgres://ferretdb@127.0.0.1:$pg_port/ferretdb?pool_max_conns=$ferretdb_pool")
    else
      mkdir -p "$data_dir/ferretdb"
      backend_args=(-handler sqlite -data "$data_dir/ferretdb")
    fi
    nohup "$bin" -listen "127.0.0.1:$mongo_port" "${backend_args[@]}" \
      >"$run_dir/ferretdb.log" 2>&1 &
    echo $! >"$run_dir/ferretdb.pid"
    wait_port "$mongo_port" FerretDB "$run_dir/ferretdb.log"
    log "FerretDB ($backend backend) started on 127.0.0.1:$mongo_port"
  fi
  MONGODB_URL="mongodb://127.0.0.1:$mongo_port"
fi

# --- NATS with JetStream -----------------------------------------------------
if [ -n "${NATS_URL:-}" ]; then
  log "NATS: using NATS_URL"
else
  if port_open "$nats_port"; then
    log "NATS: something already listens on 127.0.0.1:$nats_port; using it"
  else
    command -v nats-server >/dev/null || apt_install nats-server
    mkdir -p "$data_dir/nats"
    nohup nats-server -js -a 127.0.0.1 -p "$nats_port" -sd "$data_dir/nats" \
      >"$run_dir/nats.log" 2>&1 &
    echo $! >"$run_dir/nats.pid"
    wait_port "$nats_port" NATS "$run_dir/nats.log"
    log "NATS (JetStream) started on 127.0.0.1:$nats_port"
  fi
  NATS_URL="nats://127.0.0.1:$nats_port"
fi

# --- Redis --------------------------------------------------------------------
if [ -n "${REDIS_URL:-}" ]; then
  log "Redis: using REDIS_URL"
else
  if port_open "$redis_port"; then
    log "Redis: something already listens on 127.0.0.1:$redis_port; using it"
  else
    command -v redis-server >/dev/null || apt_install redis-server
    mkdir -p "$data_dir/redis"
    redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$data_dir/redis" \
      --daemonize yes --pidfile "$run_dir/redis.pid" --logfile "$run_dir/redis.log" \
      --save "" --appendonly no >/dev/null
    wait_port "$redis_port" Redis "$run_dir/redis.log"
    log "Redis started on 127.0.0.1:$redis_port"
  fi
  REDIS_URL="redis://127.0.0.1:$redis_port"
fi

# --- Schemathesis: the contract fuzzer of the end-to-end tests ---------------
# A Python virtual environment with the pinned version, made once per
# version and Python and cached like the FerretDB build (a venv cannot be
# moved, so it is built in place and marked complete at the end).
schemathesis_version=4.32.5
schemathesis_bin() {
  local python
  # Debian's python3 first: the one apt can complete with python3-venv.
  python=$(command -v /usr/bin/python3 || command -v python3 || true)
  if [ -z "$python" ]; then
    apt_install python3 python3-venv
    python=$(command -v /usr/bin/python3 || command -v python3)
  fi
  # Debian splits venv and ensurepip out of python3.
  if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    apt_install python3-venv
  fi
  local pyver
  pyver=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  local venv="$cache_dir/schemathesis-$schemathesis_version-py$pyver"
  # Worktrees of one machine share the cache: one of them builds it at a time.
  exec 9>"$venv.lock"
  flock 9
  if [ ! -f "$venv/.complete" ]; then
    log "installing Schemathesis $schemathesis_version (once; cached at $venv)"
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2
    "$venv/bin/pip" install --disable-pip-version-check --no-input -q "schemathesis==$schemathesis_version" >&2
    touch "$venv/.complete"
  fi
  echo "$venv/bin/st"
}
SCHEMATHESIS=$(schemathesis_bin)

# --- Prometheus and promtool: the alert rules' tests and the metrics tests ---
# Debian's package; only the two binaries are used (its service is not started here).
if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
  apt_install --no-install-recommends prometheus
fi
PROMETHEUS=$(command -v prometheus)
PROMTOOL=$(command -v promtool)

# --- Chromium: the dashboard's browser tests (Playwright drives it) --------
# Debian's package: Playwright never downloads a browser of its own here.
if ! command -v chromium >/dev/null; then
  apt_install --no-install-recommends chromium
fi
CHROMIUM=$(command -v chromium)

# --- Kubernetes manifest check: kustomize + the upstream API types ---------
# Built once from the Go module proxy, cached by the hash of its sources like
# FerretDB; worktrees of one machine share the cache (one builds at a time).
k8s_check_binary() {
  local src="$root/tools/k8s-check"
  local hash
  hash=$(cat "$src/go.mod" "$src/go.sum" "$src"/*.go | sha256sum | cut -c1-12)
  local bin="$cache_dir/k8s-check-$hash"
  exec 8>"$bin.lock"
  flock 8
  if [ ! -x "$bin" ]; then
    command -v go >/dev/null || { log "Go is needed to build tools/k8s-check (go 1.26+); install it and run again"; exit 1; }
    log "building tools/k8s-check (once; cached at $bin)"
    (cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$bin.tmp" .) >&2
    mv "$bin.tmp" "$bin"
  fi
  echo "$bin"
}
K8S_CHECK=$(k8s_check_binary)

cat >"$run_dir/infra.env" <<ENV
MONGODB_URL=$MONGODB_URL
NATS_URL=$NATS_URL
REDIS_URL=$REDIS_URL
SCHEMATHESIS=$SCHEMATHESIS
PROMETHEUS=$PROMETHEUS
PROMTOOL=$PROMTOOL
K8S_CHECK=$K8S_CHECK
CHROMIUM=$CHROMIUM
ENV
