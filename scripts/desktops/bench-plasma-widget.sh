#!/usr/bin/env bash
# By hand (not in `make bench`: it needs the Debian testing root with plasma-desktop):
# what the Plasma widget costs plasmashell per live call second, next to Plasma's own
# digital clock showing seconds, in the same plasmashell, same run. Needs a session of
#   MODE=panel scripts/desktops/run-in-root.sh ROOT run-plasma-widget.sh
# whose panel holds com.relavoi.call (the agent's question answered yes). Runs
# relavoi-sandbox with one call (ringing 2 s, live LIVE s) and `relavoi-agent` for it,
# and reads plasmashell's CPU time (/proc/PID/stat: utime + stime, all its threads) and
# voluntary context switches (/proc/PID/task/*/status) over three windows of WINDOW s:
#   idle   the agent connected, no call, the clock without seconds;
#   live   the call live (from 8 s after the answer: its popup gone), the clock without seconds;
#   clock  no call, the digital clock showing seconds (set through plasmashell's scripting,
#          set back after).
#   scripts/desktops/bench-plasma-widget.sh RUN_DIR OUTDIR
set -euo pipefail
run_dir=${1:?usage: $0 RUN_DIR OUTDIR}
out=${2:?usage: $0 RUN_DIR OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../../.build/debug}
window=${WINDOW:-45}
source "$run_dir/env"
pid=$WIDGET_PID
mkdir -p "$out"

cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
switches() { cat /proc/"$pid"/task/*/status | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n}'; }
measure() { # name
    local c0 s0 t0 c1 s1 t1
    c0=$(cpu) s0=$(switches) t0=$(date +%s.%N)
    sleep "$window"
    c1=$(cpu) s1=$(switches) t1=$(date +%s.%N)
    echo "$1 $(echo "$t1 - $t0" | bc) $((c1 - c0)) $((s1 - s0))" | tee -a "$out/windows.txt"
}
script() { gdbus call --session --dest org.kde.plasmashell --object-path /PlasmaShell \
    --method org.kde.PlasmaShell.evaluateScript "$1"; }
clock_seconds() { # 0 never, 2 always
    script "panels().forEach(function (p) { p.widgets('org.kde.plasma.digitalclock').forEach(function (w) {
        w.currentConfigGroup = ['Appearance']; w.writeConfig('showSeconds', $1); }); });"
}

live=$((window + 12))
ring_at=$((window + 6))
call='"sessionId":"ses_bench_0001","proxyNumber":"+2348000000003"'
cat >"$out/scenario.jsonl" <<SCENARIO
{"at":0,"session":{"id":"ses_bench_0001","proxyNumber":"+2348000000003","state":"ACTIVE","metadata":{"label":"Bench rider"}}}
{"at":0,"waitForClient":true}
{"at":$ring_at,"event":"call.incoming","payload":{$call}}
{"at":$((ring_at + 2)),"event":"call.answered","payload":{$call,"cpaasSessionId":"cp_bench"}}
{"at":$((ring_at + 2 + live)),"event":"call.ended","payload":{$call,"durationSeconds":$live,"cpaasSessionId":"cp_bench"}}
{"at":$((ring_at + 2 + live + 30)),"quit":true}
SCENARIO
config=$(mktemp -d "$out/xdg-config.XXXXXX")
mkdir -p "$config/relavoi"
printf '[agent]\nkde-panel = on\ndismiss-policy = after:3\n' >"$config/relavoi/agent.conf"
"$build/relavoi-sandbox" --scenario "$out/scenario.jsonl" >"$out/sandbox.out" 2>"$out/sandbox.log" &
sandbox=$!
for _ in $(seq 100); do grep -q '^READY ' "$out/sandbox.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^READY //p' "$out/sandbox.out" | head -n1)
[ -n "$url" ] || { echo "sandbox not ready" >&2; kill "$sandbox"; exit 1; }
: >"$out/windows.txt"
XDG_CONFIG_HOME=$config RELAVOI_BASE_URL=$url \
    RELAVOI_API_KEY=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d \
    RELAVOI_TENANT_ID=5a4d0000-0000-4000-8000-00000000c0de \
    RELAVOI_API_SECRET=rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de \
    "$build/relavoi-agent" --verbose >"$out/agent.log" 2>&1 &
agent=$!
start=$(date +%s.%N)
sleep 3
measure idle
# Into the live call: 8 s after the answer (its popup gone: its timeout bar animates while up).
wait_for=$(echo "$start + $ring_at + 10 - $(date +%s.%N)" | bc)
if [ "$(echo "$wait_for > 0" | bc)" = 1 ]; then sleep "$wait_for"; fi
import -silent -window root "$out/live.png" || true
measure live
# After the call (and its ended banner) is gone: the clock with seconds.
wait_for=$(echo "$start + $ring_at + 2 + $live + 6 - $(date +%s.%N)" | bc)
if [ "$(echo "$wait_for > 0" | bc)" = 1 ]; then sleep "$wait_for"; fi
clock_seconds 2 >/dev/null
sleep 3
import -silent -window root "$out/clock.png" || true
measure clock
clock_seconds 0 >/dev/null
kill "$agent" "$sandbox" 2>/dev/null || true
wait "$agent" 2>/dev/null || true
rm -rf "$config"
grep -c "shows the calls" "$out/agent.log" >/dev/null || echo "the widget never said ShowingCalls" >&2
echo "window seconds cpu-ticks(10ms) voluntary-switches"
cat "$out/windows.txt"
