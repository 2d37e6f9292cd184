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
# DNS tests start their own pdns_server (sqlite backend) on loopback and ask it with dig.
[ -x /usr/sbin/pdns_server ] || missing+=(pdns-server)
[ -f /usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql ] || missing+=(pdns-backend-sqlite3)
command -v dig >/dev/null 2>&1 || missing+=(bind9-dnsutils)
# The panel's backup storage is tested with the real restic CLI (Debian's 0.14).
command -v restic >/dev/null 2>&1 || missing+=(restic)
# Invoice PDFs are tested as a reader sees them: poppler's pdftotext.
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
# npm ci builds better-sqlite3 12 (Node 20) from source where no prebuilt download answers.
command -v g++ >/dev/null 2>&1 || missing+=(g++ make)
if [ ${#missing[@]} -gt 0 ]; then
  # No service starts on this host while installing (invoke-rc.d asks policy-rc.d; 101 = no).
  own_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
    own_policy=1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$own_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
  # PowerDNS's own service stays off at boot too: the tests run their own.
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl disable --now pdns >/dev/null 2>&1 || true
  fi
fi
# PostgreSQL, when installed but stopped, is started so the API suite runs on it too.
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi

step "npm ci"
npm ci --no-audit --no-fund --loglevel=error

# Side by side: each is one process on one CPU, and neither needs the other's result.
step "typecheck and lint"
npm run typecheck &
typecheck_pid=$!
lint_status=0
npm run lint || lint_status=$?
typecheck_status=0
wait "$typecheck_pid" || typecheck_status=$?
[ "$typecheck_status" -eq 0 ] || exit "$typecheck_status"
[ "$lint_status" -eq 0 ] || exit "$lint_status"

step "unit and API tests"
# Four workers on any machine: several API files mostly wait (two panel processes' ticks, restic
# runs, socket round trips: one measured 160 s of wall time for 24 s of CPU), so two workers on a
# two-CPU machine left it half idle.
npx vitest run --project unit --project 'api-*' --maxWorkers=4

# Sandbox servers (scripts/sandbox): their Debian packages, installed with no service started
# on this host, then the system tests that boot them.
step "sandbox server packages"
scripts/sandbox-server deps
# Node 24 LTS's binary (scripts/node24/test.sh) is fetched now, so nothing downloads alongside.
scripts/node24/test.sh --install-only

# Three at once: the system tests spend most of their time waiting on sandbox servers (about a
# third of one CPU on average), so the unit and API suites on Node 24 LTS (the embedded SQLite,
# whose driver is what differs between the Nodes; PostgreSQL's client is plain JavaScript and ran
# on Node 20 above) and the build fill the rest. The system tests use nothing of dist/ (they
# bundle their own agent into a temp dir).
step "system tests (sandbox servers), with Node 24's unit and API tests and the build alongside"
node24_log=$(mktemp)
scripts/node24/test.sh --project unit --project api-sqlite >"$node24_log" 2>&1 &
node24_pid=$!
build_log=$(mktemp)
npm run build >"$build_log" 2>&1 &
build_pid=$!
system_log=$(mktemp)
system_status=0
npx vitest run --project system 2>&1 | tee "$system_log" || system_status=$?
build_status=0
wait "$build_pid" || build_status=$?
node24_status=0
wait "$node24_pid" || node24_status=$?

step "unit and API tests on Node 24 (ran alongside)"
cat "$node24_log"
rm -f "$node24_log"
step "build (ran alongside)"
cat "$build_log"
rm -f "$build_log"
if [ "$system_status" -ne 0 ]; then
  # Again at the end, where a reader of the log's tail looks: what failed in the system tests.
  step "system tests failed"
  sed 's/\x1b\[[0-9;]*m//g' "$system_log" | grep -E -A12 '^ *(FAIL|×)|Error:' | tail -150
  exit "$system_status"
fi
rm -f "$system_log"
[ "$node24_status" -eq 0 ] || exit "$node24_status"
[ "$build_status" -eq 0 ] || exit "$build_status"

step "UI tests (Playwright, /usr/bin/chromium)"
npx playwright test
