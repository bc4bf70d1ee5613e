#!/usr/bin/env bash
# make demo: a scripted call (ringing, answered, ~20 s of timer, verified,
# ended with a short linger) through the whole path: sandbox -> stream ->
# agent -> banner.
# On a desktop (a session bus with a notification server) the banner shows on
# your own notification server. Elsewhere this starts a private bus, Xvfb and
# dunst, runs the same script and saves screenshots as PNG files.
# Usage: scripts/demo.sh PATH/TO/relavoi-agent [OUTDIR]
set -euo pipefail
agent=${1:?usage: $0 PATH/TO/relavoi-agent [OUTDIR]}
outdir=${2:-$(pwd)/out/demo}
here=$(cd "$(dirname "$0")" && pwd)

has_notification_server() {
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || return 1
  command -v gdbus >/dev/null || return 1
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true && return 0
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.ListActivatableNames 2>/dev/null | grep -q "'org.freedesktop.Notifications'"
}

if [ "${RELAVOI_DEMO_HEADLESS:-0}" != 1 ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && has_notification_server; then
  echo "demo: showing the banner on this desktop's notification server (about 30 s)"
  exec "$agent" --demo
fi

if [ "${RELAVOI_DEMO_INNER:-0}" != 1 ]; then
  echo "demo: no desktop here; starting a private session bus, Xvfb and dunst"
  RELAVOI_DEMO_INNER=1 exec dbus-run-session --config-file="$here/session-bus.conf" -- "$0" "$agent" "$outdir"
fi

# Inside the private bus: a display and a real notification server.
mkdir -p "$outdir"
display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
pids=("$xvfb")
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
export DISPLAY=":$display"
dunst -config "$here/dunstrc" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do dunstctl is-paused >/dev/null 2>&1 && break; sleep 0.1; done

"$agent" --demo &
agent_pid=$!
pids+=("$agent_pid")
shot() {
  sleep "$1"
  import -window root -crop 460x160+564+0 "$outdir/$2.png" 2>/dev/null && echo "demo: saved $outdir/$2.png ($3)"
}
# The script starts ringing ~1 s after the stream is live, answers at 4 s, ends at 25 s.
shot 3 1-ringing "ringing"
shot 5 2-live "answered, timer running, verified"
shot 10 3-live-later "the same banner, ticked in place"
shot 10 4-ended "call ended, lingering"
wait "$agent_pid"
status=$?
echo "demo: agent exited with $status"
exit "$status"
