#!/usr/bin/env bash
# Runs one `relavoi-agent --demo` call against a server started by a run-*.sh
# script of this folder, records the bus with dbus-monitor and takes a
# screenshot while ringing, live and ended.
#   scripts/desktops/watch-demo.sh RUN_DIR OUTDIR [AGENT]
# Screenshot times (seconds after the agent starts) can be moved with
# SHOTS="ringing:2 live:12 ended:26". Writes OUTDIR/{monitor.txt,summary.txt,*.png}.
set -euo pipefail
run_dir=${1:?usage: $0 RUN_DIR OUTDIR [AGENT]}
out=${2:?usage: $0 RUN_DIR OUTDIR [AGENT]}
here=$(cd "$(dirname "$0")" && pwd)
agent=${3:-$here/../../.build/debug/relavoi-agent}
source "$run_dir/env"
mkdir -p "$out"

shot() { # file
    if [ -n "${WAYLAND_DISPLAY:-}" ]; then
        grim "$1"
    else
        import -silent -window root "$1"
    fi
}

dbus-monitor --session "interface='org.freedesktop.Notifications'" \
    "interface='org.kde.StatusNotifierWatcher'" "type='method_return'" >"$out/monitor.txt" 2>&1 &
monitor=$!
sleep 0.5
start=$(date +%s.%N)
"$agent" --demo >"$out/agent.log" 2>&1 &
agent_pid=$!
for entry in ${SHOTS:-ringing:2 live:12 ended:26}; do
    name=${entry%%:*} at=${entry##*:}
    now=$(date +%s.%N)
    wait_for=$(echo "$start + $at - $now" | bc)
    if [ "$(echo "$wait_for > 0" | bc)" = 1 ]; then sleep "$wait_for"; fi
    shot "$out/$name.png" || echo "no screenshot $name" >&2
    [ -n "${AT_SHOT:-}" ] && eval "$AT_SHOT" "$name" >>"$out/at-shot.txt" 2>&1 || true
done
wait "$agent_pid" || echo "agent exited with $?" >&2
sleep 2
kill "$monitor" 2>/dev/null || true
python3 "$here/count-notify.py" "$out/monitor.txt" | tee "$out/summary.txt"
