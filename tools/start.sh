#!/usr/bin/env bash
# npm start: install what is missing, start the infrastructure, build and run
# every service and the gateway, print the URL and a working API key.
set -euo pipefail
cd "$(dirname "$0")/.."
# Playwright (a development package: the dashboard's browser tests) never downloads a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[start] installing npm packages" >&2
  npm ci --no-audit --no-fund >&2
fi
bash tools/infra/up.sh
node tools/build-apps.mjs
exec node --enable-source-maps dist/tools/local-stack.js
