#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what it needs on a fresh Debian machine as
# root, then runs every layer of DESIGN.md: static checks, unit, API (SQLite, and PostgreSQL
# when one runs), system (sandbox servers), and the UI in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "system packages"
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
fc-list 2>/dev/null | grep -qi dejavu || missing+=(fonts-dejavu-core)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# PostgreSQL, when installed but stopped, is started so the API suite runs on it too.
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi

step "npm ci"
npm ci --no-audit --no-fund --loglevel=error

step "typecheck and lint"
npm run typecheck
npm run lint

step "unit and API tests"
npx vitest run --project unit --project 'api-*'

# Sandbox servers (scripts/sandbox): their Debian packages, installed with no service started
# on this host, then the system tests that boot them.
step "sandbox server packages"
scripts/sandbox-server deps

step "system tests (sandbox servers)"
npx vitest run --project system

step "build"
npm run build

step "UI tests (Playwright, /usr/bin/chromium)"
npx playwright test
