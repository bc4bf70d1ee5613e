#!/usr/bin/env bash
# The Relavoi window (relavoi-window) driven as a person would, through GTK's
# accessibility tree (AT-SPI, Tests/window/atspi-driver.py), against relavoi-sandbox on
# 127.0.0.1:
#   - every control has an accessible name;
#   - a (made-up) API secret set into the hidden field reaches the AT-SPI bus in no
#     text-changed event and no GetText: not one of its characters;
#   - a wrong pair: the inline error next to the secret, nothing saved (no agent.conf, no
#     keyring item); an unreachable server: said next to the server address; a bad number:
#     said next to the number;
#   - the right pair: the secret in the keyring, the rest in agent.conf, the agent started
#     by D-Bus activation (no systemd user manager here), the window and
#     `relavoi-agent ctl status` both say connected (and how long that took);
#   - a second launch raises the first window and ends;
#   - Settings: the labels saying whose value each row shows end at one x (one column);
#   - the lock-screen choice is a radio group: one Tab stop (the chosen radio button), the
#     arrows move the choice within it;
#   - a changed setting (lock screen: badge only) reaches agent.conf, and the agent's `Calls`
#     entries follow it (the agent re-reads agent.conf in place);
#   - sign out: no secret left in the keyring, no api-key in agent.conf;
#   - a desktop's own settings show on that desktop only (XDG_CURRENT_DESKTOP, as the agent
#     reads it): GNOME's top bar and lock-screen card under GNOME, the KDE panel under KDE,
#     neither elsewhere; agent.conf is left as it was.
# Its own world: a private session bus (only com.relavoi.Agent can be activated on it),
# Xvfb, the AT-SPI bus, gnome-keyring-daemon, relavoi-sandbox. Every step waits for its
# event; none sleeps a fixed time. Skips (exit 0) only when Xvfb, the AT-SPI bus launcher,
# gnome-keyring or python3-gi's Atspi are missing. Ends with "N passed, N failed".
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$repo/Tests/window
python=/usr/bin/python3
. "$repo/Tests/lib/checks.sh"
bin=${RELAVOI_BIN_DIR:-$repo/.build/debug}
launcher=/usr/libexec/at-spi-bus-launcher

if [ "${1:-}" != --inside ]; then
  for tool in Xvfb dbus-run-session gnome-keyring-daemon "$launcher"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "skip - window check: $tool missing (scripts/install-deps.sh test)"; exit 0; }
  done
  "$python" -c 'import gi; gi.require_version("Atspi", "2.0"); gi.require_version("Secret", "1")' 2>/dev/null ||
    { echo "skip - window check: python3-gi with Atspi and Secret missing (gir1.2-atspi-2.0, gir1.2-secret-1)"; exit 0; }
  for program in relavoi-window relavoi-agent relavoi-sandbox; do
    [ -x "$bin/$program" ] || { echo "FAIL - window check: no $bin/$program (make build)"; exit 1; }
  done
  work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-window-test.XXXXXX")
  mkdir -p "$work/services" "$work/config" "$work/data" "$work/cache" "$work/runtime" "$work/home"
  chmod 700 "$work/runtime"
  # The agent as the session bus would start it (D-Bus activation), the desktop's way.
  printf '[D-BUS Service]\nName=com.relavoi.Agent\nExec=%s --verbose\n' "$bin/relavoi-agent" >"$work/services/com.relavoi.Agent.service"
  private_bus_config "$work" "$work/services" >"$work/session.conf"
  # The activated agent inherits the bus's environment: the private folders, set before it starts.
  env HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" \
    XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_DIRS="$work/etc-xdg" GSETTINGS_BACKEND=memory \
    WORK=$work dbus-run-session --config-file="$work/session.conf" -- "$0" --inside
  rc=$?
  rm -rf -- "$work"
  exit "$rc"
fi

# ------------------------------------------------------------ inside the private bus
pids=()
cleanup() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  pkill_agent
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do wait "${pids[i]}" 2>/dev/null; done
}
# The activated agent is the bus's child, not ours: found by its bus name.
pkill_agent() {
  local pid
  pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID com.relavoi.Agent 2>/dev/null | sed -n 's/(uint32 \([0-9]*\),)/\1/p')
  [ -z "$pid" ] || kill "$pid" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP
checks_deadline=$((SECONDS + 300))
conf=$XDG_CONFIG_HOME/relavoi/agent.conf
finish() {
  if [ "$failed" -gt 0 ]; then
    for f in "$WORK"/window.log "$WORK"/sandbox.log; do [ -f "$f" ] && { echo "# $(basename "$f") (tail):"; tail -n 12 "$f" | sed 's/^/#   /'; }; done
  fi
  summary --skipped
  exit
}
drive() { "$python" "$here/atspi-driver.py" "$@"; }
# keyboard_walk PAGE: Tab reaches each control of the page (a radio group once: its chosen
# button); entry rows, whose focus GTK 4.8 does not report over AT-SPI, are a skip of their own
# (exit 3).
keyboard_walk() {
  local out rc
  out=$(drive focus-walk "$1" 2>&1)
  rc=$?
  case $rc in
    0) ok "keyboard: $out" ;;
    3) ok "keyboard: $out"; skip "keyboard: the entry rows of $1" "GTK 4.8 reports no focus for entry rows over AT-SPI" ;;
    *) fail "keyboard: Tab reaches every control of $1" "$out" ;;
  esac
}
shows() { drive shows "$1"; }
keyring_item() {
  "$python" - "$1" <<'PY'
import sys, gi
gi.require_version("Secret", "1")
from gi.repository import Secret
schema = Secret.Schema.new("com.relavoi.Agent", Secret.SchemaFlags.NONE, {"api-key": Secret.SchemaAttributeType.STRING})
found = Secret.password_lookup_sync(schema, {"api-key": sys.argv[1]}, None)
sys.exit(0 if found else 1)
PY
}
name_owned() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp 3>"$WORK/display" >"$WORK/xvfb.log" 2>&1 &
pids+=($!)
wait_for 20 test -s "$WORK/display" || { fail "Xvfb starts"; finish; }
export DISPLAY=:$(head -1 "$WORK/display")
"$launcher" --launch-immediately >"$WORK/atspi.log" 2>&1 &
pids+=($!)
wait_for 20 name_owned org.a11y.Bus || { echo "skip - window check: the AT-SPI bus does not start"; exit 0; }
printf 'relavoi-test-password' | gnome-keyring-daemon --unlock --components=secrets --foreground >"$WORK/keyring.log" 2>&1 &
pids+=($!)
wait_for 20 name_owned org.freedesktop.secrets || { echo "skip - window check: gnome-keyring does not start"; exit 0; }

# relavoi-sandbox with one long call, played once a client connects.
session=sess-window-1
cat >"$WORK/call.scenario" <<EOF2
{"at":0,"session":{"id":"$session","proxyNumber":"+2348000000001","metadata":{"label":"Chowdeck rider"},"userPhones":["+2348000000099"],"expiresAt":900}}
{"at":0,"waitForClient":true}
{"at":1,"event":"call.incoming","payload":{"sessionId":"$session","proxyNumber":"+2348000000001"}}
{"at":3,"event":"call.answered","payload":{"sessionId":"$session","cpaasSessionId":"cp-1"}}
EOF2
"$bin/relavoi-sandbox" --scenario "$WORK/call.scenario" >"$WORK/sandbox.log" 2>&1 &
pids+=($!)
wait_for 30 grep -q '^READY ' "$WORK/sandbox.log" || { fail "relavoi-sandbox starts"; finish; }
sandbox_url=$(sed -n 's/^READY //p' "$WORK/sandbox.log" | head -1)
key=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d
secret=rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de
wrong=rs_1111111111111111111111111111111111111111111111111111111111111111

# On GNOME (the lock-screen choice below is GNOME's); the agent, activated by the bus, has
# the bus's environment, not this.
XDG_CURRENT_DESKTOP=GNOME G_MESSAGES_DEBUG=relavoi "$bin/relavoi-window" >"$WORK/window.log" 2>&1 &
window_pid=$!
pids+=("$window_pid")
if wait_for 30 shows "Sign in to Relavoi"; then ok "the window opens on Sign in ($(grep -o 'first frame [0-9]* ms' "$WORK/window.log"))"; else fail "the window opens on Sign in"; finish; fi

out=$(drive unnamed)
if [ "$?" = 0 ]; then ok "every control has an accessible name (0 without)"; else fail "every control has an accessible name" "$out"; fi
keyboard_walk "Sign in"
# The API secret never reaches the accessibility bus while hidden (GTK 4.8 would send its
# characters in text-changed events and GetText, and Orca read them aloud): a made-up one.
made_up=rs_5eC12e7f0rtEsts0nlyNeverReal5eC12e7f0rtEsts0nlyNeverReal5eC12e
out=$(printf '%s' "$made_up" | drive secret-off-bus "API secret" 2>&1)
case $? in
  0) ok "a hidden secret stays off the accessibility bus ($out)" ;;
  3) fail "a hidden secret stays off the accessibility bus: no text-changed event came" "$out" ;;
  *) fail "a hidden secret stays off the accessibility bus" "$out" ;;
esac
# A field by keyboard alone: Tab to the phone number and type it; the line under the field
# formats it as it is typed.
if out=$(drive type-until-shown "+2348000000077" "Will be saved as +234 800 000 0077" 2>&1); then
  ok "keyboard: Tab reaches the phone number field, and typing fills it (formatted as typed)"
else
  fail "keyboard: Tab and typing reach the phone number field" "$out"
fi

# A bad number: said next to the number, nothing checked or saved.
drive set-text "API key" "$key"
drive set-text "API secret" "$secret"
drive set-text "Your phone number (optional)" "12345"
drive press "Sign in"
if wait_for 20 shows "This is not a phone number"; then ok "a bad number: said next to the number"; else fail "a bad number is said"; fi
drive set-text "Your phone number (optional)" "+234 800 000 0099"
wait_for 10 shows "Will be saved as +234 800 000 0099" && ok "the number is formatted as typed" || fail "the number is formatted as typed"

# An unreachable server (a closed port on this machine).
drive toggle "Advanced" 2>/dev/null || true
drive set-text "Server address (base URL)" "http://127.0.0.1:9/v1"
drive press "Sign in"
if wait_for 40 shows "Cannot reach http://127.0.0.1:9/v1"; then ok "an unreachable server: said next to the server address"; else fail "an unreachable server is said"; fi
[ ! -e "$conf" ] && ok "unreachable: agent.conf not written" || fail "unreachable: agent.conf not written" "$(cat "$conf")"

# A wrong pair, sent with the keyboard: Tab to Sign in, Enter.
drive set-text "Server address (base URL)" "$sandbox_url"
# The problem spoke of the old address: editing it takes the problem away.
gone() { ! shows "$1"; }
if wait_for 10 gone "Cannot reach"; then ok "editing the server address takes its problem away"; else fail "the old 'Cannot reach' goes once the address is edited"; fi
drive set-text "API secret" "$wrong"
if out=$(drive tab-to "Sign in" 2>&1); then
  drive key Return
else
  fail "keyboard: Tab reaches Sign in" "$out"
  drive press "Sign in"
fi
if wait_for 30 shows "Relavoi did not accept this API key and secret"; then ok "a wrong pair (Enter on Sign in): said next to the secret"; else fail "a wrong pair is said"; fi
[ ! -e "$conf" ] && ok "wrong pair: agent.conf not written" || fail "wrong pair: agent.conf not written" "$(cat "$conf")"
keyring_item "$key" && fail "wrong pair: nothing in the keyring" || ok "wrong pair: nothing in the keyring"
name_owned com.relavoi.Agent && fail "wrong pair: no agent started" || ok "wrong pair: no agent started"

# The right pair: saved, the agent started by D-Bus activation, connected.
drive set-text "API secret" "$secret"
drive press "Sign in"
if wait_for 60 grep -q "connected .* s after Sign in" "$WORK/window.log"; then
  ok "the right pair: $(grep -o 'connected .* s after Sign in' "$WORK/window.log")"
else
  fail "the right pair connects"
fi
keyring_item "$key" && ok "the secret is in the keyring" || fail "the secret is in the keyring"
grep -q "^api-key=$key" "$conf" && grep -q "^tenant-id=5a4d0000-0000-4000-8000-00000000c0de" "$conf" &&
  grep -q "^user-phone=+2348000000099" "$conf" && grep -q "^base-url=$sandbox_url" "$conf" &&
  ! grep -q "$secret" "$conf" && ok "agent.conf: api-key, tenant-id, user-phone, base-url (no secret)" ||
  fail "agent.conf holds what was signed in" "$(cat "$conf" 2>&1)"
wait_for 20 shows "Connected" && ok "the window says Connected" || fail "the window says Connected"
# Health says connected once the connection held 5 s (the agent's settling time).
ctl_connected() { "$bin/relavoi-agent" ctl status 2>&1 | grep -q "health: connected"; }
wait_for 20 ctl_connected && ok "ctl status says connected" || fail "ctl status says connected" "$("$bin/relavoi-agent" ctl status 2>&1)"

# A second launch raises the first and ends.
if timeout 20 "$bin/relavoi-window" >"$WORK/second.log" 2>&1; then
  [ "$(drive windows)" = 1 ] && ok "a second launch ends and leaves one window" || fail "a second launch leaves one window" "$(drive windows)"
else
  fail "a second launch ends" "$(cat "$WORK/second.log")"
fi

# The call in progress on Status, its timer ticking.
drive tab "Status"
wait_for 30 shows "Chowdeck rider" && ok "Status shows the call in progress" || fail "Status shows the call in progress"
keyboard_walk "Status"

# A setting: lock screen, badge only.
calls() {
  gdbus call --session --dest com.relavoi.Agent --object-path /com/relavoi/Agent \
    --method org.freedesktop.DBus.Properties.Get com.relavoi.Agent1 Calls 2>/dev/null
}
drive tab "Settings"
calls_label() { calls | grep -q "'lock-label': <'Chowdeck rider'>"; }
wait_for 30 calls_label && ok "before: Calls' lock-label is the call's label" || fail "before: Calls' lock-label" "$(calls | head -c 300)"
quoted() { local q; printf -v q '"%s", ' "$@"; printf '%s' "${q%, }"; }
# desktop_rows DESKTOP SHOWN... -- HIDDEN...: the rows of Settings a desktop shows and hides.
desktop_rows() {
  local desktop=$1 row shown=() hidden=() into=shown
  shift
  for row in "$@"; do
    if [ "$row" = -- ]; then into=hidden; elif [ "$into" = shown ]; then shown+=("$row"); else hidden+=("$row"); fi
  done
  local wrong=()
  for row in "${shown[@]}"; do shows "$row" || wrong+=("missing: $row"); done
  for row in "${hidden[@]}"; do shows "$row" && wrong+=("shown: $row"); done
  if [ "${#wrong[@]}" = 0 ]; then
    ok "XDG_CURRENT_DESKTOP=$desktop: Settings shows $(quoted "${shown[@]}"); not $(quoted "${hidden[@]}")"
  else
    fail "XDG_CURRENT_DESKTOP=$desktop: a desktop's own settings" "${wrong[*]}"
  fi
}
gnome_rows=("Calls in GNOME's top bar" "What the call card on GNOME's lock screen shows")
kde_rows=("Show calls in the KDE panel")
desktop_rows GNOME "${gnome_rows[@]}" "Panel item" -- "${kde_rows[@]}"
keyboard_walk "Settings"
if out=$(drive origin-column "Settings" 2>&1); then ok "Settings: whose value each row shows, in one column ($out)"; else fail "Settings: the Default/Yours labels in one column" "$out"; fi
# The lock-screen choice: one Tab stop, the arrows within (and each arrow writes its choice,
# back to where it started).
if out=$(drive radio-group 2>&1); then ok "keyboard: the lock-screen choice is one Tab stop, the arrows move within it ($out)"; else fail "keyboard: the lock-screen choice as a radio group" "$out"; fi
# "Badge only": Tab to the group, the arrows to it (AT-SPI's radio button).
if drive choose "On the lock screen" "Badge only" >"$WORK/choose.log" 2>&1; then
  if wait_for 10 grep -q "^lock-screen=badge" "$conf"; then ok "a changed setting reaches agent.conf (lock-screen=badge)"; else fail "lock-screen reaches agent.conf" "$(cat "$conf")"; fi
  calls_badge_only() { calls | grep -q "'lock-label': <''>"; }
  if wait_for 20 calls_badge_only; then
    ok "the agent follows it: Calls' lock-label is empty (badge only)"
  else
    fail "the agent follows lock-screen=badge (it re-reads agent.conf in place)" "$(calls | head -c 300)"
  fi
else
  fail "lock screen: Badge only by keyboard" "$(tail -1 "$WORK/choose.log")"
fi
drive toggle "Text message banners"
# A combo row by keyboard (libadwaita 1.2's has no AT-SPI action): pause-media, from
# "When a call rings" (the default) two down to "Never".
if drive combo-by-keyboard "Pause music and videos" 2 >"$WORK/combo.log" 2>&1 &&
  wait_for 10 grep -q "^pause-media=off" "$conf"; then
  ok "a choice by keyboard reaches agent.conf (pause-media=off)"
else
  fail "pause-media by keyboard reaches agent.conf" "$(cat "$WORK/combo.log") $(cat "$conf")"
fi
wait_for 10 grep -q "^sms-notifications=false" "$conf" && ok "a switch reaches agent.conf (sms-notifications=false)" || fail "sms-notifications reaches agent.conf"
drive set-text "Page a click opens" "not a url"
drive press "Page a click opens" 2>/dev/null || true

# Sign out.
drive tab "Status"
drive press "Sign out…"
wait_for 10 shows "Sign out of Relavoi?" || fail "Sign out asks first"
drive press "Sign out"
if wait_for 20 sh -c "! grep -q '^api-key=' '$conf'"; then ok "sign out: no api-key in agent.conf"; else fail "sign out: no api-key in agent.conf"; fi
wait_for 20 sh -c "! \"$python\" - <<'PY'
import gi
gi.require_version('Secret', '1')
from gi.repository import Secret
s = Secret.Schema.new('com.relavoi.Agent', Secret.SchemaFlags.NONE, {'api-key': Secret.SchemaAttributeType.STRING})
raise SystemExit(0 if Secret.password_lookup_sync(s, {'api-key': '$key'}, None) else 1)
PY" && ok "sign out: no secret left in the keyring" || fail "sign out: no secret left in the keyring"

# A new instance: the running one ended, its bus name gone.
end_window() {
  kill "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  wait_for 10 sh -c '! gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner com.relavoi.Agent.Settings | grep -q true'
}

# On KDE: the panel's row, not GNOME's; GNOME's values (lock-screen=badge) stay in agent.conf.
end_window "$window_pid"
cp "$conf" "$WORK/conf-before"
XDG_CURRENT_DESKTOP=KDE "$bin/relavoi-window" --page settings >"$WORK/window-kde.log" 2>&1 &
window_pid=$!
pids+=("$window_pid")
if wait_for 30 shows "Panel item"; then
  desktop_rows KDE "${kde_rows[@]}" "Panel item" -- "${gnome_rows[@]}"
  keyboard_walk "Settings"
  if out=$(drive origin-column "Settings" 2>&1); then ok "KDE: whose value each row shows, in one column ($out)"; else fail "KDE: the Default/Yours labels in one column" "$out"; fi
else
  fail "XDG_CURRENT_DESKTOP=KDE: the window opens on Settings"
fi
end_window "$window_pid"
cmp -s "$WORK/conf-before" "$conf" && grep -q "^lock-screen=badge" "$conf" &&
  ok "KDE: agent.conf as it was (lock-screen=badge kept)" || fail "KDE: agent.conf as it was" "$(diff "$WORK/conf-before" "$conf")"

# In French: the window's catalog (bindtextdomain as the agent's), a new instance; on a
# desktop that is neither GNOME nor KDE (none named), neither's settings.
env -u XDG_CURRENT_DESKTOP LANG=fr_FR.UTF-8 LC_ALL=fr_FR.UTF-8 LANGUAGE= "$bin/relavoi-window" >"$WORK/window-fr.log" 2>&1 &
pids+=($!)
if wait_for 30 shows "Connexion à Relavoi"; then ok "LANG=fr_FR.UTF-8: the window speaks French (Connexion à Relavoi)"; else fail "LANG=fr_FR.UTF-8: the window speaks French" "$(drive dump 2>&1 | head -5)"; fi
drive tab "Réglages"
if wait_for 10 shows "Icône du panneau"; then
  desktop_rows "(none)" "Icône du panneau" -- "Appels dans la barre de GNOME" "Afficher les appels dans le tableau de bord KDE" \
    "Ce que montre la carte d'appel sur l'écran de verrouillage de GNOME"
else
  fail "no desktop named: Settings opens (Réglages)"
fi
finish
