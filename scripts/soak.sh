#!/usr/bin/env bash
# make soak: the release relavoi-agent for SOAK_MINUTES (default 30) against an
# in-process relavoi-sandbox and python3-dbusmock's notification daemon on a
# private session bus, with a scripted mix of calls, stream reconnects and
# notification server restarts; reports the agent's memory, fds, threads and
# idle wake-ups at the start and the end. See docs/hardening.md.
#
#   SOAK_MINUTES=30            the whole run (at least 1.5)
#   SOAK_RECONNECTS=50         default: 50, fewer in runs too short to space them 12 s apart
#   SOAK_SERVER_RESTARTS=5     default: 5, fewer in short runs (20 s apart)
#   SOAK_CALL_INTERVAL=4       mean seconds between calls
#   SOAK_SESSION_RATE=12.8     sessions without calls per second; default: 1.1 x 8192 in the mix's first fifth
#   SOAK_SEED=24301            the mix is deterministic for a seed
#   SOAK_OUT=out/soak          report.txt, samples.csv, timeline.txt, agent.log
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
scratch=${SOAK_SCRATCH:-$root/.build/soak}

shim=$root/.build/pkgconfig
[[ -f $shim/libsoup-3.0.pc ]] || scripts/pkgconfig-shim.sh "$shim"
export PKG_CONFIG_PATH=$shim${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}

# As make release: the static Swift runtime (what is installed and runs).
"$swift" build -c release --static-swift-stdlib --scratch-path "$scratch" --product relavoi-agent
bin=$("$swift" build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
# relavoi-soak (Tools/) in the same build.
"$swift" build -c release --static-swift-stdlib --scratch-path "$scratch" --product relavoi-soak
tools_bin=$bin

export SOAK_MINUTES=${SOAK_MINUTES:-30}
export SOAK_AGENT=${SOAK_AGENT:-$bin/relavoi-agent}
export SOAK_OUT=${SOAK_OUT:-$root/out/soak}
echo "== soak: $SOAK_MINUTES minutes, agent $SOAK_AGENT, output in $SOAK_OUT"
exec dbus-run-session --config-file="$root/scripts/session-bus.conf" -- "$tools_bin/relavoi-soak"
