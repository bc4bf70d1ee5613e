#!/usr/bin/env bash
# What a screen reader is told about a call in a headless GNOME Shell, read off the AT-SPI bus.
#
#   Tests/shell/check-gnome-shell-a11y.sh          # from make test
#
# Starts its own world and stops it, as check-gnome-shell.sh does (a private session bus and
# system bus, Xvfb, `gnome-shell --x11 --unsafe-mode`, the extension relavoi@relavoi.com
# installed from its zip), plus what a screen reader's session has: an AT-SPI bus
# (at-spi-bus-launcher), toolkit-accessibility and screen-reader-enabled on, so the shell
# puts its actors on that bus. Tests/shell/atspi-events.py listens there to the events Orca
# acts on (object:state-changed:showing, object:property-change:accessible-name,
# window:create) while the real agent plays one call from relavoi-sandbox: rings, is
# answered, ticks for more than 10 s, ends. Checked, against Orca's rule (it speaks a
# notification that becomes shown, and a name change of the focused object only):
#   - one Relavoi banner shown while it rings, with the label, the number and the badge
#   - no banner shown and nothing Orca would speak during 10 ticks of the timer
#   - the pill's accessible name does not change with the ticks
#   - one banner shown at the end ("Call ended")
#   - locked (a stand-in GDM on the private system bus lets the shell lock), a second call:
#     its card under the clock shown once at the ring and once at the end, as a
#     notification named without the timer, nothing Orca would speak in between
# Every step waits for its event; none sleeps a fixed time. Skips (exit 0) when gnome-shell
# or the AT-SPI bus launcher is not installed. Ends with "N passed, N failed".
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$repo/Tests/shell
uuid=relavoi@relavoi.com
python=/usr/bin/python3
launcher=/usr/libexec/at-spi-bus-launcher
. "$repo/Tests/lib/checks.sh"
. "$repo/Tests/lib/gnome-shell.sh"

if [ "${1:-}" != --inside ]; then
  for tool in gnome-shell "$launcher"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "skip - GNOME Shell screen reader check: $tool is not installed (scripts/install-deps.sh test)"; exit 0; }
  done
  for tool in Xvfb dbus-run-session dbus-daemon gnome-extensions gsettings "$python"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "FAIL - GNOME Shell screen reader check: $tool missing (scripts/install-deps.sh test)"; exit 1; }
  done
  work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-shell-a11y.XXXXXX")
  mkdir -p "$work/services"
  # Only the shell's own helper that owns org.freedesktop.Notifications may be activated.
  [ ! -f /usr/share/dbus-1/services/org.gnome.Shell.Notifications.service ] ||
    ln -s /usr/share/dbus-1/services/org.gnome.Shell.Notifications.service "$work/services/"
  private_bus_config "$work" "$work/services" >"$work/session.conf"
  WORK=$work dbus-run-session --config-file="$work/session.conf" -- "$0" --inside
  rc=$?
  rm -rf -- "$work"
  exit "$rc"
fi

# ------------------------------------------------------------ inside the private bus
work=$WORK
agent_bin=${RELAVOI_AGENT_BIN:-$repo/.build/debug/relavoi-agent}
sandbox_bin=${RELAVOI_SANDBOX_BIN:-$(dirname "$agent_bin")/relavoi-sandbox}
events=$work/events.jsonl
pids=()
trap stop_started EXIT
trap 'exit 143' TERM INT HUP
finish() {
  if [ "$failed" -gt 0 ]; then
    echo "# AT-SPI events (tail):"; tail -n 30 "$events" 2>/dev/null | sed 's/^/#   /'
    echo "# gnome-shell log (tail):"; tail -n 15 "$work/gnome-shell.log" | sed 's/^/#   /'
    for f in "$work"/agent.log "$work"/sandbox.log; do [ -f "$f" ] && { echo "# $(basename "$f") (tail):"; tail -n 8 "$f" | sed 's/^/#   /'; }; done
  fi
  summary
  exit
}
checks_deadline=$((SECONDS + 300))
shell_eval() { "$python" "$here/shell-eval.py" "$1"; }
name_owned() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}
for bin in "$agent_bin" "$sandbox_bin"; do
  [ -x "$bin" ] || { fail "$(basename "$bin") binary" "no $bin (make build)"; finish; }
done

# A private system bus (with a stand-in GDM, so the shell can lock) and Xvfb
# (Tests/lib/gnome-shell.sh), with the AT-SPI bridge on.
start_private_system_bus || { fail "private system bus starts" "$gnome_shell_error"; finish; }
start_stand_in_gdm || fail "the stand-in GDM starts" "$gnome_shell_error"
start_xvfb_session || { fail "Xvfb starts" "$gnome_shell_error"; finish; }
unset NO_AT_BRIDGE

# A screen reader's session: the AT-SPI bus, and the switches that make the shell use it.
"$launcher" --launch-immediately >"$work/at-spi.log" 2>&1 &
pids+=($!)
wait_for 20 name_owned org.a11y.Bus || { fail "the AT-SPI bus starts" "$(cat "$work/at-spi.log")"; finish; }
gsettings set org.gnome.desktop.interface toolkit-accessibility true
gsettings set org.gnome.desktop.a11y.applications screen-reader-enabled true

install_shell_extension || { fail "the extension's build is installed" "$gnome_shell_error"; finish; }
if start_gnome_shell; then
  ok "gnome-shell $major started on the AT-SPI bus (pid $shell_pid, display $DISPLAY)"
else
  fail "gnome-shell starts" "$gnome_shell_error"
  finish
fi
gnome-extensions enable "$uuid" 2>"$work/enable.log"
wait_for 30 sh -c "\"$python\" \"$here/shell-eval.py\" \"Main.extensionManager.lookup('$uuid')?.state\" | grep -qx 1" ||
  { fail "gnome-extensions enable $uuid" "$(cat "$work/enable.log")"; finish; }

"$python" "$here/atspi-events.py" >"$events" 2>"$work/atspi-events.err" &
pids+=($!)
if wait_for 30 grep -qx READY "$events"; then
  ok "listening on the AT-SPI bus (showing, accessible-name, window:create)"
else
  fail "the AT-SPI listener starts" "$(cat "$work/atspi-events.err")"
  finish
fi

# The pill's timer, read from the panel (mm:ss), and now as the events' clock reads it.
pill_timer() {
  shell_eval "(() => { const St = imports.gi.St; const b = Main.panel.statusArea['$uuid']; const t = [];
    const walk = a => { if (a instanceof St.Label && a.visible && a.text) t.push(a.text); a.get_children().forEach(walk); };
    if (b && b.mapped) walk(b); return t.join(' '); })()" | grep -o '[0-9][0-9]:[0-9][0-9]' | head -1 | grep .
}
timer_at_least() { local t; t=$(pill_timer) && [ $((10#${t%%:*} * 60 + 10#${t##*:})) -ge "$1" ]; }
now() { date +%s.%N; }
# The events so far, one per line, filtered by jq-like conditions in python.
count() { # count FROM TO PYTHON-CONDITION (on e, the event): how many events in [FROM, TO)
  "$python" - "$events" "$1" "$2" "$3" <<'PY'
import json, sys
path, lo, hi, cond = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
n = 0
for line in open(path, encoding="utf-8"):
    if not line.startswith("{"):
        continue
    e = json.loads(line)
    if lo <= e["t"] < hi and eval(cond, {}, {"e": e}):
        n += 1
print(n)
PY
}
has_event() { [ "$(count 0 1e12 "$1")" -ge 1 ]; }
banner='e["event"].startswith("object:state-changed:showing") and e["role"] == "notification" and "Chowdeck rider" in (e["name"] + " " + e["text"])'
# The pill: the panel button (role "menu") whose name speaks of the call.
pill_name='e["event"].startswith("object:property-change:accessible-name") and e["role"] == "menu" and "Chowdeck rider" in e["name"]'
spoken='e["speaks"]'

# One call: rings at 1 s, answered at 4 s, ended at 20 s (more than 10 ticks).
session=sess-a11y-1
cat >"$work/call.scenario" <<EOF
{"at":0,"session":{"id":"$session","proxyNumber":"+2348000000001","metadata":{"label":"Chowdeck rider"},"userPhones":["+2348000000099"],"expiresAt":900}}
{"at":0,"session":{"id":"$session-locked","proxyNumber":"+2348000000001","metadata":{"label":"Chowdeck rider"},"userPhones":["+2348000000099"],"expiresAt":900}}
{"at":0,"waitForClient":true}
{"at":1,"event":"call.incoming","payload":{"sessionId":"$session","proxyNumber":"+2348000000001"}}
{"at":4,"event":"call.answered","payload":{"sessionId":"$session","cpaasSessionId":"cp-a11y"}}
{"at":20,"event":"call.ended","payload":{"sessionId":"$session","cpaasSessionId":"cp-a11y","durationSeconds":16}}
{"at":42,"event":"call.incoming","payload":{"sessionId":"$session-locked","proxyNumber":"+2348000000001"}}
{"at":44,"event":"call.answered","payload":{"sessionId":"$session-locked","cpaasSessionId":"cp-a11y-2"}}
{"at":61,"event":"call.ended","payload":{"sessionId":"$session-locked","cpaasSessionId":"cp-a11y-2","durationSeconds":17}}
EOF
"$sandbox_bin" --scenario "$work/call.scenario" >"$work/sandbox.log" 2>&1 &
pids+=($!)
wait_for 30 grep -q '^READY ' "$work/sandbox.log" || { fail "relavoi-sandbox starts" "$(tail -3 "$work/sandbox.log")"; finish; }
(umask 077 && printf '%s' rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de >"$work/secret")
mkdir -p "$XDG_CONFIG_HOME/relavoi" && printf '[agent]\ndismiss-policy = after:6\n' >"$XDG_CONFIG_HOME/relavoi/agent.conf"
t_start=$(now)
# relavoi-sandbox's fixed test credentials (docs/sandbox.md), never valid elsewhere.
env RELAVOI_BASE_URL="$(sed -n 's/^READY //p' "$work/sandbox.log" | head -1)" \
  RELAVOI_API_KEY=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d RELAVOI_TENANT_ID=5a4d0000-0000-4000-8000-00000000c0de \
  RELAVOI_API_SECRET_FILE="$work/secret" RELAVOI_USER_PHONE=+2348000000099 \
  "$agent_bin" --verbose >"$work/agent.log" 2>&1 &
pids+=($!)

# The ring: a banner shown that says who, the number and the badge (a ring first shown with
# "Checking…" is shown anew once the server answers, so Orca hears the answer too).
ring='e["event"].startswith("object:state-changed:showing") and e["role"] == "notification" and "Incoming call" in e["text"]'
if wait_for 45 has_event "$ring"' and "Chowdeck rider" in e["text"] and "Verified" in e["text"]'; then
  said=$("$python" -c 'import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    if l.startswith("{"):
        e = json.loads(l)
        if eval(sys.argv[2]) and "Verified" in e["text"]: print(e["text"]); break' "$events" "$ring")
  ok "the ring: a banner is shown, Orca says \"notification\" and: $said"
  case "$said" in
    # GNOME draws the body on one line: a comma, not a line break, keeps the number and the
    # badge apart (NotificationServerRules.joinsBodyLines).
    *'Chowdeck rider'*'+234 800 000 0001, Verified'*) ok "... it says who, the number and the badge, a comma between" ;;
    *) fail "the ring banner says who, the number, a comma and the badge" "$said" ;;
  esac
  n=$(count 0 1e12 "$ring")
  if [ "$n" -le 2 ]; then ok "ring banners shown: $n (a second only once a \"Checking…\" is answered)"; else fail "at most two ring banners" "$n"; fi
else
  fail "the ring: a banner is shown that says who and the badge" "$(grep -c . "$events") events"
  finish
fi

# Ten ticks: from the pill's 00:01 to its 00:11.
if wait_for 45 timer_at_least 1; then
  t1=$(now) at1=$(pill_timer)
  if wait_for 30 timer_at_least 11; then
    t2=$(now) at2=$(pill_timer)
    ok "ten ticks: the pill went from $at1 to $at2"
    n=$(count "$t1" "$t2" "$banner")
    if [ "$n" -eq 0 ]; then ok "no banner shown during the ticks"; else fail "no banner shown during the ticks" "$n shown"; fi
    n=$(count "$t1" "$t2" "$spoken")
    if [ "$n" -eq 0 ]; then ok "nothing Orca would speak during the ticks"; else fail "nothing Orca would speak during the ticks" "$n events"; fi
    n=$(count "$t1" "$t2" "$pill_name")
    name=$(shell_eval "Main.panel.statusArea['$uuid'].accessible_name")
    case "$name" in
      *'Chowdeck rider'*) ok "the pill's accessible name says who: $name" ;;
      *) fail "the pill's accessible name says who" "$name" ;;
    esac
    if [ "$n" -eq 0 ]; then
      ok "the pill's accessible name does not change with the ticks"
    else
      fail "the pill's accessible name does not change with the ticks" "$n changes between $at1 and $at2"
    fi
  else
    fail "the timer reaches 00:11" "$(pill_timer)"
  fi
else
  fail "the pill shows a timer" "$(pill_timer)"
fi

# The end: one banner shown, then none more until the call is gone.
ended="$banner"' and "Call ended" in e["text"]'
if wait_for 45 has_event "$ended"; then
  pill_gone() { shell_eval "Main.panel.statusArea['$uuid']?.mapped" | grep -qx false; }
  wait_for 30 pill_gone || fail "the pill goes after the call"
  n=$(count 0 1e12 "$ended")
  if [ "$n" -eq 1 ]; then ok "the end: one banner shown (\"Call ended\")"; else fail "the end: one banner shown" "$n shown"; fi
  n=$(count "$t_start" 1e12 "$banner")
  echo "# Relavoi banners shown in the whole call: $n"
else
  fail "the end: a banner is shown"
fi

# The lock screen (a second call, rung while locked): GNOME shows no banner there; the
# extension's card under the clock is the notification Orca speaks, once at the ring and
# once at the end, by its name (no timer), never for the answer or a tick.
card='e["event"].startswith("object:state-changed:showing") and e["role"] == "notification" and e["name"].startswith("Chowdeck rider,")'
first_time() { # FROM PYTHON-CONDITION: the time and name of the first such event from FROM
  "$python" -c 'import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    if l.startswith("{"):
        e = json.loads(l)
        if e["t"] >= float(sys.argv[2]) and eval(sys.argv[3]): print(e["t"], e["name"], sep="\t"); break' "$events" "$1" "$2"
}
card_timer() {
  shell_eval "(() => { const St = imports.gi.St; const c = Main.screenShield?._dialog?._clock; const t = [];
    const walk = a => { if (a.has_style_class_name?.('relavoi-lock-state') && a.visible) t.push(a.text); a.get_children().forEach(walk); };
    if (c) walk(c); return t.join(' '); })()" | grep -o '[0-9][0-9]:[0-9][0-9]' | head -1 | grep .
}
card_timer_at_least() { local t; t=$(card_timer) && [ $((10#${t%%:*} * 60 + 10#${t##*:})) -ge "$1" ]; }
is_locked() { shell_eval "Main.sessionMode.isLocked" | grep -qx true; }
if [ -z "$can_lock" ]; then
  skip "the lock screen" "no /run/systemd/seats here: GNOME Shell builds no lock screen"
else
  # From the lock on (the first call's ended card, still on the lock screen, is shown with
  # it; the second call's end is looked for after its ring).
  t_locked=$(now)
  shell_eval "Main.screenShield.lock(false); true" >/dev/null
  if wait_for 20 is_locked; then
    ok "locked before the second call rings"
    rung="$card"' and "Incoming call" in e["name"]'
    if wait_for 60 has_event "$rung"; then
      IFS=$'\t' read -r t_ring said <<<"$(first_time "$t_locked" "$rung")"
      ok "locked, the ring: a card shown, Orca says \"notification\" and: $said"
      case "$said" in
        *[0-9][0-9]:[0-9][0-9]*) fail "the card's name has no timer" "$said" ;;
        *'Chowdeck rider'*0001*Verified* | *'Chowdeck rider'*Verified*0001*) ok "... it says who, the number as allowed and the badge, no timer" ;;
        *) fail "the card's name says who, the number as allowed and the badge" "$said" ;;
      esac
      if wait_for 45 card_timer_at_least 10; then
        ok "locked: the card's timer reached $(card_timer)"
      else
        fail "locked: the card's timer ticks" "$(card_timer)"
      fi
      over="$card"' and "Call ended" in e["name"]'
      ended_since_ring() { [ "$(count "$t_ring" 1e12 "$over")" -ge 1 ]; }
      if wait_for 45 ended_since_ring; then
        IFS=$'\t' read -r t_end said <<<"$(first_time "$t_ring" "$over")"
        ok "locked, the end: a card shown, Orca says \"notification\" and: $said"
        n=$(count "$t_locked" 1e12 "$rung")
        if [ "$n" -eq 1 ]; then ok "locked: one card shown at the ring"; else fail "locked: one card shown at the ring" "$n shown"; fi
        n=$(count "$t_ring" 1e12 "$over")
        if [ "$n" -eq 1 ]; then ok "locked: one card shown at the end"; else fail "locked: one card shown at the end" "$n shown"; fi
        case "$said" in *'00:17'*) ok "... the second call's end (00:17)" ;; *) fail "the end card is the second call's" "$said" ;; esac
        n=$("$python" -c "print(int($t_end - $t_ring))")
        m=$(count "$("$python" -c "print($t_ring + 0.001)")" "$t_end" "$spoken")
        if [ "$m" -eq 0 ]; then ok "locked: nothing Orca would speak between the ring and the end ($n s: the answer and the ticks)"; else fail "locked: nothing spoken between the ring and the end" "$m events"; fi
      else
        fail "locked, the end: a card is shown"
      fi
    else
      fail "locked, the ring: a card is shown" "$(grep -c . "$events") events"
    fi
  else
    fail "the shell locks"
  fi
fi
if kill -0 "$shell_pid" 2>/dev/null; then ok "gnome-shell still running"; else fail "gnome-shell still running"; fi
finish
