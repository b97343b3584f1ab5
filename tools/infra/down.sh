#!/usr/bin/env bash
# Stops the infrastructure that tools/infra/up.sh started (not servers it found running).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for name in ferretdb nats redis; do
  pidfile="$root/.run/$name.pid"
  if [ -f "$pidfile" ]; then
    kill "$(cat "$pidfile")" 2>/dev/null && echo "[infra] stopped $name"
    rm -f "$pidfile"
  fi
done
if [ -f "$root/.run/postgres.bin" ] && [ -f "$root/.run/postgres.data" ]; then
  pgbin=$(cat "$root/.run/postgres.bin"); pgdata=$(cat "$root/.run/postgres.data")
  as_postgres=(); [ "$(id -u)" = 0 ] && as_postgres=(runuser -u postgres --)
  "${as_postgres[@]}" "$pgbin/pg_ctl" -D "$pgdata" -m fast stop >/dev/null 2>&1 && echo "[infra] stopped postgres"
  rm -f "$root/.run/postgres.bin" "$root/.run/postgres.data"
fi
