#!/usr/bin/env bash
# make bench: builds relavoi-agent and relavoi-bench (Tools/) in release mode and runs
# the benchmark on a private session bus (scripts/session-bus.conf: nothing is
# D-Bus-activated behind its back) against relavoi-sandbox (in process),
# python3-dbusmock and dunst under Xvfb, which it starts and stops itself.
# Prints one table and writes .build/bench/latest.json and latest.txt (plus a
# dated copy of the JSON). docs/bench.md says what is measured and how.
#
# Environment:
#   BENCH_SCRATCH  SwiftPM scratch path of the agent's build (default .build)
#   BENCH_OUT      where the results go (default .build/bench)
#   BENCH_ARGS     more relavoi-bench options, e.g. "--runs 5" or "--quick"
#   BENCH_ONLY     "window": only relavoi-window's start-up row (relavoi-bench window);
#                  "desktop": only the desktop's cost per live call second (relavoi-bench desktop)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

scripts/install-deps.sh test

shim=$repo/.build/pkgconfig
if [ ! -f "$shim/.stamp" ] || [ scripts/pkgconfig-shim.sh -nt "$shim/.stamp" ]; then
  scripts/pkgconfig-shim.sh "$shim" && touch "$shim/.stamp"
fi
export PKG_CONFIG_PATH="$shim${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

scratch=${BENCH_SCRATCH:-$repo/.build}
out=${BENCH_OUT:-$repo/.build/bench}
# Static Swift runtime: ~6 MiB less resident memory than the shared libraries.
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product relavoi-agent
# --demo (the start-up figure) starts the relavoi-sandbox beside the agent.
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product relavoi-sandbox
# The window's start-up row (relavoi-bench finds it beside the agent).
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product relavoi-window
swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product relavoi-bench
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
tools_bin=$bin
mkdir -p "$out"
rm -f "$out/latest.json" "$out/latest.txt"

swift_version=$(swift --version 2>/dev/null | head -n 1)
status=0
# shellcheck disable=SC2086  # BENCH_ARGS is a list of options
dbus-run-session --config-file="$repo/scripts/session-bus.conf" -- \
  "$tools_bin/relavoi-bench" ${BENCH_ONLY:-} --out "$out" --agent "$bin/relavoi-agent" --swift-version "$swift_version" \
  --desktop-script "$repo/scripts/bench-desktop.sh" ${BENCH_ARGS:-} \
  2> >(grep -v --line-buffered -e 'became a monitor' -e 'Monitoring connection' -e 'Failed to set fd limit' >&2) ||
  status=$?
[ ! -f "$out/latest.json" ] || cp "$out/latest.json" "$out/bench-$(date -u +%Y%m%dT%H%M%SZ).json"
exit "$status"
