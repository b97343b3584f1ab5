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
