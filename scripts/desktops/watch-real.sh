#!/usr/bin/env bash
# One REAL call, as a person's agent would see it: relavoi-sandbox as its own
# program with a one-call scenario (a labelled session, call.incoming,
# call.answered, ~15 s, call.ended), and `relavoi-agent --verbose` (not
# --demo) given the sandbox's URL and the test credentials in the environment,
# with `dismiss-policy = after:5` in an agent.conf under a temporary
# XDG_CONFIG_HOME; on the session bus of a server started by a run-*.sh script
# of this folder. Records the bus with dbus-monitor and takes screenshots.
#   scripts/desktops/watch-real.sh RUN_DIR OUTDIR
# SHOTS="ringing:2 live:12 ended:21" (seconds after the agent starts);
# AT_SHOT="cmd" runs with the shot's name after each shot; DURING="cmd" runs
# in the background once the agent has started (e.g. a dismissal by the person);
# CONFIG="key = value" adds a line to the agent.conf; RING=N rings N seconds
# (3) before the answer; SCENARIO=FILE plays that scenario instead (e.g.
# two-calls.jsonl, two calls ringing at once; its "waitForClient" waits for
# the agent).
# Writes OUTDIR/{monitor.txt,agent.log,sandbox.log,summary.txt,*.png}.
set -euo pipefail
run_dir=${1:?usage: $0 RUN_DIR OUTDIR}
out=${2:?usage: $0 RUN_DIR OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../.build/debug}
source "$run_dir/env"
mkdir -p "$out"

shot() { # file
    if [ -n "${WAYLAND_DISPLAY:-}" ]; then grim "$1"; else import -silent -window root "$1"; fi
}

config=$(mktemp -d "$out/xdg-config.XXXXXX")
mkdir -p "$config/relavoi"
printf '[agent]\ndismiss-policy = after:5\n%s\n' "${CONFIG:-}" >"$config/relavoi/agent.conf"
call='"sessionId":"ses_real_0001","proxyNumber":"+2348000000002"'
ring=${RING:-3}
if [ -n "${SCENARIO:-}" ]; then cp "$SCENARIO" "$out/scenario.jsonl"; else cat >"$out/scenario.jsonl"; fi <<SCENARIO
{"at":0,"session":{"id":"ses_real_0001","proxyNumber":"+2348000000002","state":"ACTIVE","metadata":{"label":"Glovo courier"}}}
{"at":0,"waitForClient":true}
{"at":2,"event":"call.incoming","payload":{$call}}
{"at":$((2 + ring)),"event":"call.answered","payload":{$call,"cpaasSessionId":"cp_real"}}
{"at":$((17 + ring)),"event":"call.ended","payload":{$call,"durationSeconds":15,"cpaasSessionId":"cp_real"}}
{"at":$((37 + ring)),"quit":true}
SCENARIO

"$build/relavoi-sandbox" --scenario "$out/scenario.jsonl" --verbose >"$out/sandbox.out" 2>"$out/sandbox.log" &
sandbox=$!
for _ in $(seq 100); do grep -q '^READY ' "$out/sandbox.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^READY //p' "$out/sandbox.out" | head -n1)
[ -n "$url" ] || { echo "sandbox not ready" >&2; kill "$sandbox"; exit 1; }

dbus-monitor --session "interface='org.freedesktop.Notifications'" \
    "interface='org.kde.StatusNotifierWatcher'" "type='method_return'" >"$out/monitor.txt" 2>&1 &
monitor=$!
sleep 0.5
start=$(date +%s.%N)
XDG_CONFIG_HOME=$config RELAVOI_BASE_URL=$url \
    RELAVOI_API_KEY=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d \
    RELAVOI_TENANT_ID=5a4d0000-0000-4000-8000-00000000c0de \
    RELAVOI_API_SECRET=rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de \
    G_SLICE=always-malloc "$build/relavoi-agent" --verbose >"$out/agent.log" 2>&1 &
agent=$!
[ -n "${DURING:-}" ] && { bash -c "$DURING" >"$out/during.txt" 2>&1 & }
for entry in ${SHOTS:-ringing:4.5 live:14 ended:23.5}; do
    name=${entry%%:*} at=${entry##*:}
    wait_for=$(echo "$start + $at - $(date +%s.%N)" | bc)
    if [ "$(echo "$wait_for > 0" | bc)" = 1 ]; then sleep "$wait_for"; fi
    shot "$out/$name.png" || echo "no screenshot $name" >&2
    if [ -n "${AT_SHOT:-}" ]; then eval "$AT_SHOT" "$name" >>"$out/at-shot.txt" 2>&1 || true; fi
done
# the call ends about 21 s after the start; after:5 closes it about 5 s later
wait_for=$(echo "$start + ${UNTIL:-34} - $(date +%s.%N)" | bc)
if [ "$(echo "$wait_for > 0" | bc)" = 1 ]; then sleep "$wait_for"; fi
kill "$agent" 2>/dev/null || true
wait "$agent" 2>/dev/null || true
kill "$sandbox" 2>/dev/null || true
sleep 1
kill "$monitor" 2>/dev/null || true
rm -rf "$config"
python3 "$here/count-notify.py" "$out/monitor.txt" | tee "$out/summary.txt"
