#!/usr/bin/env bash
# npm test: install what is missing, start the real infrastructure
# (FerretDB, NATS JetStream, Redis), lint, type-check, look for copied
# code (jscpd), then run every
# project's tests through Nx (unit, integration and end-to-end).
# `npm run test:affected` runs only what a change touches.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=${NX_SKIP_NX_CACHE:-${CI:+true}}
# The browser tests drive Debian's Chromium (tools/infra/up.sh installs it): never a browser of Playwright's.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[test] installing npm packages" >&2
  npm ci --no-audit --no-fund >&2
fi
bash tools/infra/up.sh

echo "[test] lint, type-check and copy-paste check" >&2
npx eslint .
npx tsc -p tsconfig.json --noEmit
npx tsc -p apps/dashboard/tsconfig.json --noEmit
npx tsc -p apps/gateway/src/embed/widget/tsconfig.json --noEmit
# Duplicated blocks of code in apps/ and libs/ (.jscpd.json says what is scanned and why).
npx jscpd --no-colors

export TEST_SUMMARY_DIR="$PWD/.run/test-summary"
rm -rf "$TEST_SUMMARY_DIR"
status=0
if [ "${1:-}" = "affected" ]; then
  npx nx affected -t test --parallel=2 --outputStyle=static || status=$?
else
  # Every test runs again: they talk to real infrastructure, so a cached
  # pass proves nothing about this machine (and would go uncounted below).
  npx nx run-many -t test --parallel=2 --outputStyle=static --skip-nx-cache || status=$?
fi

# One closing line for the whole run, summed over every project.
node -e '
  const fs = require("fs"), dir = process.argv[1];
  const t = { passed: 0, failed: 0, skipped: 0 };
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const r = JSON.parse(fs.readFileSync(dir + "/" + f, "utf8"));
    for (const k in t) t[k] += r[k];
  }
  console.log(`Tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
' "$TEST_SUMMARY_DIR"
exit $status
