#!/usr/bin/env bash
# Runs the tests that involve the version calendar (support windows, end-of-life dates, the age
# of the version data) with the clock moved two years ahead. Each of them must set the date it
# judges, so they pass on any date; this run proves it instead of waiting for the calendar.
#
# How: libfaketime (Debian `faketime`) is preloaded and fakes only processes named `node` — the
# test runner and every virtgate process it starts. The control plane, Prometheus, Chromium and
# openssl are Go or other programs and keep the real clock, as they would in a cluster whose
# operator looks at virtgate from the future. Monotonic clocks are left alone (timers keep working).
set -euo pipefail
cd "$(dirname "$0")/.."

ahead_days=730
lib="$(dpkg -L faketime libfaketime 2>/dev/null | grep -m1 '/libfaketime.so.1$' || true)"
if [[ -z "$lib" || ! -f "$lib" ]]; then
  echo "test:calendar: libfaketime is not installed: apt-get install faketime (.ci/run does this)" >&2
  exit 1
fi

export LD_PRELOAD="$lib" FAKETIME="+${ahead_days}d" FAKETIME_ONLY_CMDS=node FAKETIME_DONT_FAKE_MONOTONIC=1
real_year=$(LD_PRELOAD='' date -u +%Y)
faked_year=$(node -e 'process.stdout.write(String(new Date().getUTCFullYear()))')
if (( faked_year < real_year + 1 )); then
  echo "test:calendar: the clock did not move (node says $faked_year, today is $real_year): libfaketime has no effect here" >&2
  exit 1
fi
echo "[test:calendar] node's clock reads $(node -e 'process.stdout.write(new Date().toISOString())') (${ahead_days} days ahead)" >&2

# The date-sensitive tests: the gate, the tuple and the version data (unit), and every integration
# test that asserts a gate result or an end-of-life figure. Not here: the Prometheus rule tests
# (promtool is Go, keeps the real clock, and pins its evaluation times) and e2e-prometheus: Prometheus
# keeps the real clock too, so the reports' heartbeats would be two years ahead of its time() (a
# skew no cluster has); that test works out its end-of-life alerts from Prometheus's own time()
# and the version data's date, so it passes on any day without a faked clock.
exec npx vitest run \
  aggregator/ cli/commands/tuple.test.ts \
  test/integration/demo.test.ts \
  test/integration/aggregator-gate.test.ts test/integration/aggregator-outputs.test.ts \
  test/integration/aggregator-restart.test.ts "$@"
