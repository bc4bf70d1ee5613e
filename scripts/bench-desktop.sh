#!/usr/bin/env bash
# The desktop's cost per live call second (make bench runs it through relavoi-bench;
# docs/bench.md has the method):
#   scripts/bench-desktop.sh --agent BIN --sandbox BIN --out FILE.json [--seconds S] [--repeats R]
#                            [--only gnome|sway]
#
# GNOME Shell (the Debian 12 host's, 43) on Xvfb as Tests/shell/check-gnome-shell.sh starts
# it (private session and system buses, keyfile GSettings, the extension installed from its
# zip), then R rounds of four phases of S seconds (default 150) each, in this order:
#   idle            no agent, the clock without seconds
#   clock           org.gnome.desktop.interface clock-show-seconds true, no agent
#   call-extension  a live call (relavoi-sandbox, the release agent), the extension on
#   call-bare       the same call, the extension off (the call is only the shell's notification)
# Then waybar (the panel host of the tray item) on a headless sway, with mako as the
# notification server: R rounds of `idle` (no agent) and `call-tray` (the item of a live call).
# Each phase's figure is a process's CPU time from /proc/PID/stat (utime + stime, in clock
# ticks of 10 ms) per second of wall time, the same from its threads' schedstat (ns, thread by
# thread, polled each second so that a thread that ends is counted to its last second) and
# their voluntary context switches (wake-ups): the
# shell, GNOME's notification helper (the gjs process that owns org.freedesktop.Notifications
# for the shell), waybar, sway and the agent.
# A call phase starts once the call shows live and its first seconds are past.
# Writes FILE.json (every phase of every round, raw ticks and seconds); exit 1 when a
# desktop did not come up (what did run is still written).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shell_dir=$repo/Tests/shell
uuid=relavoi@relavoi.com
python=/usr/bin/python3
. "$repo/Tests/lib/checks.sh"
. "$repo/Tests/lib/gnome-shell.sh"

agent_bin= sandbox_bin= out= seconds=150 repeats=2 desktops="gnome sway"
while [ $# -gt 0 ]; do
  case $1 in
    --agent) agent_bin=$2; shift 2 ;;
    --sandbox) sandbox_bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --only) desktops=$2; shift 2 ;;
    --inside-gnome | --inside-sway) inside=$1; shift ;;
    *) echo "usage: $0 --agent BIN --sandbox BIN --out FILE.json [--seconds S] [--repeats R] [--only gnome|sway]" >&2; exit 2 ;;
  esac
done
[ -x "$agent_bin" ] && [ -x "$sandbox_bin" ] && [ -n "$out" ] || { echo "bench-desktop: --agent, --sandbox and --out are needed" >&2; exit 2; }
say() { echo "bench-desktop: $*" >&2; }
name_owned() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

ticks() { # utime + stime of PID (clock ticks)
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
  stat=${stat##*) }
  set -- $stat
  echo $((${12} + ${13}))
}
threads_runtime() { # "TID NANOSECONDS" for each of PID's threads: time on the CPU from schedstat
  awk '{ split(FILENAME, path, "/"); print path[5], $1 }' /proc/"$1"/task/*/schedstat 2>/dev/null
}
# runtime_since BEFORE POLLS LAST: "NANOSECONDS GONE" from snapshots of threads_runtime: the
# threads' CPU time since BEFORE, each thread as last seen in POLLS (every snapshot since, one
# a second, LAST included; a thread started since counts from 0), and how many of BEFORE's
# threads are gone from LAST (counted up to their last poll: GLib's pool threads, the ones
# that come and go, end after idling, so little or nothing of theirs is missed).
runtime_since() {
  awk 'FILENAME == ARGV[1] { before[$1] = $2; next } FILENAME == ARGV[2] { last[$1] = $2; next } { alive[$1] = 1 }
       END { for (t in last) ns += last[t] - (t in before ? before[t] : 0)
             for (t in before) if (!(t in alive)) gone++
             printf "%.0f %d\n", ns, gone }' "$1" "$2" "$3"
}
wakeups() { # voluntary context switches of PID's threads
  cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { s += $2 } END { printf "%d\n", s }'
}
# measure PHASE ROUND NAME=PID...: S seconds of wall time; one line per process in $samples.
measure() {
  local phase=$1 round=$2 pair start end
  shift 2
  declare -A before before_wakeups
  for pair in "$@"; do
    before[$pair]=$(ticks "${pair#*=}") before_wakeups[$pair]=$(wakeups "${pair#*=}")
    threads_runtime "${pair#*=}" >"$work/threads-before.${pair%%=*}"
    : >"$work/threads-polls.${pair%%=*}"
  done
  start=$(date +%s.%N)
  # Whole seconds of polls, then the rest; wall time is what start and end say.
  for ((tick = 1; tick <= ${seconds%.*}; tick++)); do
    sleep 1
    for pair in "$@"; do threads_runtime "${pair#*=}" >>"$work/threads-polls.${pair%%=*}"; done
  done
  case $seconds in *.*) sleep "0.${seconds#*.}" ;; esac
  end=$(date +%s.%N)
  for pair in "$@"; do
    threads_runtime "${pair#*=}" >"$work/threads-last.${pair%%=*}"
    cat "$work/threads-last.${pair%%=*}" >>"$work/threads-polls.${pair%%=*}"
    echo "$phase $round ${pair%%=*} $(($(ticks "${pair#*=}") - before[$pair])) $start $end $(runtime_since "$work/threads-before.${pair%%=*}" "$work/threads-polls.${pair%%=*}" "$work/threads-last.${pair%%=*}") $(($(wakeups "${pair#*=}") - before_wakeups[$pair]))" >>"$samples"
  done
}

# The sandbox's fixed test credentials (docs/sandbox.md), never valid elsewhere.
sandbox_key=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d
sandbox_tenant=5a4d0000-0000-4000-8000-00000000c0de
sandbox_secret=rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de
# A call that stays live for an hour (answered 2 s after it rings).
call_pids=()
start_call() { # NAME
  local session=sess-bench-$1 log=$work/sandbox-$1.log
  cat >"$work/$1.scenario" <<EOF
{"at":0,"session":{"id":"$session","proxyNumber":"+2348000000001","metadata":{"label":"Chowdeck rider"},"userPhones":["+2348000000099"],"expiresAt":7200}}
{"at":0,"waitForClient":true}
{"at":1,"event":"call.incoming","payload":{"sessionId":"$session","proxyNumber":"+2348000000001"}}
{"at":2,"event":"call.answered","payload":{"sessionId":"$session","cpaasSessionId":"cp-$1"}}
{"at":3600,"event":"call.ended","payload":{"sessionId":"$session","cpaasSessionId":"cp-$1","durationSeconds":3598}}
EOF
  "$sandbox_bin" --scenario "$work/$1.scenario" >"$log" 2>&1 &
  call_pids=($!)
  wait_for 30 grep -q '^READY ' "$log" || { say "relavoi-sandbox did not start: $(tail -3 "$log")"; return 1; }
  (umask 077 && printf '%s' "$sandbox_secret" >"$work/secret")
  env RELAVOI_BASE_URL="$(sed -n 's/^READY //p' "$log" | head -1)" RELAVOI_API_KEY="$sandbox_key" \
    RELAVOI_TENANT_ID="$sandbox_tenant" RELAVOI_API_SECRET_FILE="$work/secret" RELAVOI_USER_PHONE=+2348000000099 \
    G_SLICE=always-malloc "$agent_bin" >"$work/agent-$1.log" 2>&1 &
  agent_pid=$!
  call_pids+=("$agent_pid")
  # Live: the agent lists the call as active with its label.
  wait_for 60 sh -c "\"$agent_bin\" ctl list 2>/dev/null | grep -qE '(live|active).*Chowdeck'" ||
    { say "the call did not go live: $(tail -3 "$work/agent-$1.log")"; return 1; }
  sleep 3.5  # past the call's first seconds (its pop), as the agent's own CPU window
}
stop_call() {
  local i
  for ((i = ${#call_pids[@]} - 1; i >= 0; i--)); do kill "${call_pids[i]}" 2>/dev/null; wait "${call_pids[i]}" 2>/dev/null; done
  call_pids=()
  agent_pid=
}

# ------------------------------------------------------------ GNOME Shell, inside its buses
if [ "${inside:-}" = --inside-gnome ]; then
  work=$WORK samples=$SAMPLES
  pids=()
  cleanup() { stop_call; local i; for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; wait "${pids[i]}" 2>/dev/null; done; }
  trap cleanup EXIT
  trap 'exit 143' TERM INT HUP
  shell_eval() { "$python" "$shell_dir/shell-eval.py" "$1"; }
  # As the shell checks start it (Tests/lib/gnome-shell.sh), without the stand-in GDM.
  start_private_system_bus || { say "no private system bus: $gnome_shell_error"; exit 1; }
  start_xvfb_session || { say "Xvfb did not start: $gnome_shell_error"; exit 1; }
  install_shell_extension || { say "the extension did not install: $gnome_shell_error"; exit 1; }
  gsettings set org.gnome.desktop.interface clock-show-seconds false
  start_gnome_shell || { say "gnome-shell did not start: $gnome_shell_error"; exit 1; }
  extension_state() { shell_eval "Main.extensionManager.lookup('$uuid')?.state"; }
  gnome-extensions enable "$uuid" && wait_for 30 sh -c "\"$python\" \"$shell_dir/shell-eval.py\" \"Main.extensionManager.lookup('$uuid')?.state\" | grep -qx 1" ||
    { say "the extension did not enable"; exit 1; }
  # GNOME's notification helper owns org.freedesktop.Notifications (D-Bus-activated on the first call).
  gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
    --method org.freedesktop.Notifications.GetServerInformation >/dev/null 2>&1
  helper_pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.Notifications 2>/dev/null | sed -n 's/.*uint32 \([0-9]*\).*/\1/p')
  [ -n "$helper_pid" ] && [ "$helper_pid" != "$shell_pid" ] || helper_pid=
  say "GNOME Shell $major (pid $shell_pid, notification helper ${helper_pid:-in the shell}), $repeats rounds of 4 phases of $seconds s"
  gnome_version=$(gnome-shell --version)
  echo "version gnome $gnome_version" >>"$samples"
  watched() { echo "shell=$shell_pid"; [ -z "$helper_pid" ] || echo "helper=$helper_pid"; [ -z "${agent_pid:-}" ] || echo "agent=$agent_pid"; }
  pill_timer() { shell_eval "Main.panel.statusArea['$uuid']?.mapped" | grep -qx true; }
  for round in $(seq "$repeats"); do
    sleep 2
    measure idle "$round" $(watched)
    gsettings set org.gnome.desktop.interface clock-show-seconds true
    wait_for 10 sh -c "\"$python\" \"$shell_dir/shell-eval.py\" 'Main.panel.statusArea.dateMenu._clockDisplay.text' | LC_ALL=C grep -qE '[0-9]{2}[^0-9]{1,8}[0-9]{2}[^0-9]{1,8}[0-9]{2}'" ||
      say "round $round: the clock shows no seconds: $(shell_eval 'Main.panel.statusArea.dateMenu._clockDisplay.text' 2>&1)"
    sleep 2
    measure clock "$round" $(watched)
    gsettings set org.gnome.desktop.interface clock-show-seconds false
    start_call gnome-$round || exit 1
    wait_for 30 pill_timer || say "round $round: no pill"
    measure call-extension "$round" $(watched)
    gnome-extensions disable "$uuid"
    wait_for 30 sh -c "\"$python\" \"$shell_dir/shell-eval.py\" \"Main.extensionManager.lookup('$uuid')?.state\" | grep -qvx 1"
    sleep 3.5
    measure call-bare "$round" $(watched)
    stop_call
    gnome-extensions enable "$uuid"
    wait_for 30 sh -c "\"$python\" \"$shell_dir/shell-eval.py\" \"Main.extensionManager.lookup('$uuid')?.state\" | grep -qx 1"
    say "round $round done"
  done
  exit 0
fi

# ------------------------------------------------------------ waybar on sway, inside its bus
if [ "${inside:-}" = --inside-sway ]; then
  work=$WORK samples=$SAMPLES
  pids=()
  cleanup() { stop_call; local i; for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; wait "${pids[i]}" 2>/dev/null; done; }
  trap cleanup EXIT
  trap 'exit 143' TERM INT HUP
  export XDG_RUNTIME_DIR=$work/runtime XDG_CONFIG_HOME=$work/config
  mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/waybar"
  chmod 700 "$XDG_RUNTIME_DIR"
  unset DISPLAY WAYLAND_DISPLAY
  # sway will not run as root: a user namespace as uid 1000, as the tests' HeadlessSway.
  if [ "$(id -u)" = 0 ]; then as_user=(unshare --user --map-user=1000 --map-group=1000); else as_user=(); fi
  echo 'output HEADLESS-1 resolution 1280x800 position 0 0' >"$work/sway.conf"
  env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman XDG_CURRENT_DESKTOP=sway \
    "${as_user[@]}" sway -c "$work/sway.conf" >"$work/sway.log" 2>&1 &
  sway_pid=$!
  pids+=("$sway_pid")
  wait_for 20 sh -c "ls \"$XDG_RUNTIME_DIR\" | grep -q '^wayland-[0-9]*$'" || { say "sway did not start: $(tail -3 "$work/sway.log")"; exit 1; }
  export WAYLAND_DISPLAY=$(ls "$XDG_RUNTIME_DIR" | grep '^wayland-[0-9]*$' | head -1)
  # The tray and the clock as a bar has them (minutes: the clock module's default).
  cat >"$XDG_CONFIG_HOME/waybar/config" <<'CONF'
{ "layer": "top", "position": "bottom", "height": 28,
  "modules-left": ["sway/workspaces"], "modules-right": ["tray", "clock"],
  "tray": { "icon-size": 18, "spacing": 8, "show-passive-items": true } }
CONF
  waybar >"$work/waybar.log" 2>&1 &
  waybar_pid=$!
  pids+=("$waybar_pid")
  wait_for 30 name_owned org.kde.StatusNotifierWatcher || { say "waybar's tray did not start: $(tail -3 "$work/waybar.log")"; exit 1; }
  mako >"$work/mako.log" 2>&1 &
  pids+=($!)
  wait_for 30 name_owned org.freedesktop.Notifications || { say "mako did not start"; exit 1; }
  say "waybar $(waybar --version 2>/dev/null | head -1) on sway (pid $waybar_pid, sway $sway_pid), $repeats rounds of 2 phases of $seconds s"
  echo "version waybar $(waybar --version 2>/dev/null | head -1); $(sway --version)" >>"$samples"
  watched() { echo "waybar=$waybar_pid"; echo "sway=$sway_pid"; [ -z "${agent_pid:-}" ] || echo "agent=$agent_pid"; }
  item_registered() {
    gdbus introspect --session --dest org.kde.StatusNotifierWatcher --object-path /StatusNotifierWatcher --only-properties 2>/dev/null |
      grep -q "RegisteredStatusNotifierItems = \['[^]]"
  }
  for round in $(seq "$repeats"); do
    sleep 2
    measure idle "$round" $(watched)
    start_call sway-$round || exit 1
    wait_for 30 item_registered || say "round $round: no item registered"
    measure call-tray "$round" $(watched)
    stop_call
    say "round $round done"
  done
  exit 0
fi

# ------------------------------------------------------------ outside: one private bus each
samples=$(mktemp "${TMPDIR:-/tmp}/relavoi-bench-desktop.XXXXXX")
status=0
for desktop in $desktops; do
  case $desktop in
    gnome) command -v gnome-shell >/dev/null || { say "no gnome-shell: skipped"; continue; } ;;
    sway) command -v sway >/dev/null && command -v waybar >/dev/null || { say "no sway or waybar: skipped"; continue; } ;;
  esac
  work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-bench-$desktop.XXXXXX")
  chmod 755 "$work"
  mkdir -p "$work/services"
  [ "$desktop" != gnome ] || [ ! -f /usr/share/dbus-1/services/org.gnome.Shell.Notifications.service ] ||
    ln -s /usr/share/dbus-1/services/org.gnome.Shell.Notifications.service "$work/services/"
  private_bus_config "$work" "$work/services" >"$work/session.conf"
  WORK=$work SAMPLES=$samples dbus-run-session --config-file="$work/session.conf" -- \
    "$0" --agent "$agent_bin" --sandbox "$sandbox_bin" --out "$out" --seconds "$seconds" --repeats "$repeats" --inside-$desktop ||
    { status=1; say "$desktop: failed; logs kept in $work"; continue; }
  rm -rf -- "$work"
done
"$python" - "$samples" "$out" "$seconds" "$repeats" "$(getconf CLK_TCK)" <<'PY'
import json, sys
samples, out, seconds, repeats, hz = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
result = {"phaseSeconds": seconds, "repeats": repeats, "clockTicksPerSecond": hz, "versions": {}, "samples": []}
for line in open(samples):
    parts = line.split()
    if parts[0] == "version":
        result["versions"][parts[1]] = " ".join(parts[2:])
        continue
    phase, rnd, proc, ticks, start, end, ns, gone, wakeups = parts
    result["samples"].append({"phase": phase, "round": int(rnd), "process": proc, "ticks": int(ticks),
                              "seconds": float(end) - float(start), "nanoseconds": int(ns),
                              "threadsGone": int(gone), "wakeups": int(wakeups)})
json.dump(result, open(out, "w"), indent=1)
PY
rm -f -- "$samples"
exit "$status"
