#!/usr/bin/env bash
# Headless GNOME Shell check of the top-bar extension relavoi@relavoi.com.
#
#   Tests/shell/check-gnome-shell.sh            # from make test
#   SHOTS=docs/screenshots Tests/shell/check-gnome-shell.sh   # also keep the screenshots there
#
# Starts its own world and stops it: a private session bus (only GNOME Shell's
# notification helper can be activated on it), a private system bus (with a stand-in GDM
# for the lock screen), Xvfb, and `gnome-shell --x11 --unsafe-mode` (unsafe mode lets
# org.gnome.Shell.Eval read the panel) with private XDG folders and keyfile GSettings.
# The build that fits the installed gnome-shell is installed from its zip with
# `gnome-extensions install` into the private XDG_DATA_HOME and turned on with
# `gnome-extensions enable`, as docs/gnome-shell.md says. Then the agent (AGENT below) plays calls
# from relavoi-sandbox:
#   1. no agent: no pill; the extension owns com.relavoi.Agent.ShellIndicator
#   2. a call: the pill shows a timer that advances (the panel text is printed at two
#      times) while its accessible name, which holds no timer, stays put; screenshots of the pill and of the open menu; after the call the pill is gone
#   3. a second call, the agent stopped mid-call: pill gone; the agent started again:
#      the pill is back, the same call's timer going on; "Copy number" fills the
#      clipboard; "Dismiss" in the menu: the call leaves and the pill goes
#   4. the lock screen (a STAND-IN GDM, Tests/shell/stand-in-gdm.py, on the private system
#      bus lets the shell lock): a call while locked shows a card under the clock with the
#      label, badge and the number's last digits only, its timer advancing between two
#      reads; GNOME's show-in-lock-screen switches (all notifications, then Relavoi's own)
#      take it away and back; after call.ended
#      the card says "Call ended · 00:26" and goes per the dismiss policy; with
#      lock-screen = off, no card; the pill is hidden on the lock screen (its menu off);
#      after unlocking the pill is back and its menu on
#   5. gnome-extensions disable: no indicator, the bus name released; enable: back
# Every step waits for its event (generous deadlines), none sleeps a fixed time.
# Skips (exit 0) only when gnome-shell is not installed. Ends with
# "N passed, N failed"; exit 1 when a check failed.
#
# AGENT (what plays the calls):
#   sandbox (default): the real agent (.build/debug/relavoi-agent, RELAVOI_AGENT_BIN overrides) on
#     relavoi-sandbox (RELAVOI_SANDBOX_BIN) with the sandbox's test credentials; a stopped
#     agent's call goes on in the sandbox, so the restarted agent finds the same call
#   demo: relavoi-agent --demo (it owns com.relavoi.Agent when no other agent does; its
#     restart replays the call from the start)
#   stand-in: Tests/shell/stand-in-agent.py, a python3 STAND-IN serving the same
#     Calls/Dismiss contract (not the agent), for work on the extension alone
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$repo/Tests/shell
uuid=relavoi@relavoi.com
python=/usr/bin/python3
. "$repo/Tests/lib/checks.sh"
. "$repo/Tests/lib/gnome-shell.sh"

if [ "${1:-}" != --inside ]; then
  if ! command -v gnome-shell >/dev/null 2>&1; then
    echo "skip - GNOME Shell check: gnome-shell is not installed (scripts/install-deps.sh test installs it)"
    exit 0
  fi
  for tool in Xvfb dbus-run-session dbus-daemon gnome-extensions gsettings import "$python"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "FAIL - GNOME Shell check: $tool missing (scripts/install-deps.sh test)"; exit 1; }
  done
  work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-shell-test.XXXXXX")
  mkdir -p "$work/services"
  # Only the shell's own helper that owns org.freedesktop.Notifications may be activated.
  for service in org.gnome.Shell.Notifications; do
    [ ! -f "/usr/share/dbus-1/services/$service.service" ] || ln -s "/usr/share/dbus-1/services/$service.service" "$work/services/"
  done
  private_bus_config "$work" "$work/services" >"$work/session.conf"
  WORK=$work dbus-run-session --config-file="$work/session.conf" -- "$0" --inside
  rc=$?
  rm -rf -- "$work"
  exit "$rc"
fi

# ------------------------------------------------------------ inside the private bus
work=$WORK
AGENT=${AGENT:-sandbox}
agent_bin=${RELAVOI_AGENT_BIN:-$repo/.build/debug/relavoi-agent}
pids=()
trap stop_started EXIT
trap 'exit 143' TERM INT HUP

finish() {
  if [ "$failed" -gt 0 ]; then
    echo "# gnome-shell log (tail):"; tail -n 25 "$work/gnome-shell.log" | sed 's/^/#   /'
    for f in "$work"/agent-*.log "$work"/sandbox-*.log; do [ -f "$f" ] && { echo "# $(basename "$f") (tail):"; tail -n 8 "$f" | sed 's/^/#   /'; }; done
  fi
  summary
  exit
}
# Every wait (wait_for) ends by this deadline, so the whole check stays bounded (it takes ~90 s).
checks_deadline=$((SECONDS + 400))
shell_eval() { "$python" "$here/shell-eval.py" "$1"; }

# The panel as the test reads it: is the pill on screen, its visible texts, its accessible name.
PANEL_JS="(() => {
  const St = imports.gi.St;
  const b = Main.panel.statusArea['$uuid'];
  if (!b) return {present: false, shown: false, text: ''};
  const texts = [];
  const walk = a => { if (a instanceof St.Label && a.visible && a.text) texts.push(a.text); a.get_children().forEach(walk); };
  walk(b);
  return {present: true, shown: b.mapped, text: texts.join(' '), name: b.accessible_name};
})()"
panel() { shell_eval "$PANEL_JS"; }
pill_shown() { panel | grep -q '"shown":true'; }
pill_gone() { panel | grep -q '"present":true,"shown":false'; }
# The pill's text once it is a live timer (mm:ss or h:mm:ss).
pill_timer() { panel | sed -n 's/.*"shown":true,"text":"\([0-9]*:[0-9][0-9]\(:[0-9][0-9]\)\{0,1\}\)".*/\1/p' | grep .; }
seconds_of() { echo "$1" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
name_owned() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

# What plays the calls (AGENT): the real agent on relavoi-sandbox, the agent's --demo, or
# the stand-in. play_call N starts call N (1: ends by itself after ~10 s of timer; 2: runs
# until stopped); restart_agent starts the agent again mid-call; stop_agent stops the agent
# (with the sandbox, the call goes on in the sandbox and the next agent finds it over REST).
n_agents=0
agent_pid=
sandbox_pid=
sandbox_url=
start_agent() {
  n_agents=$((n_agents + 1))
  local log=$work/agent-$n_agents.log
  case "$AGENT" in
    stand-in) "$python" "$here/stand-in-agent.py" --ring 2 --live "$([ "$call" = 1 ] && echo 12 || echo 120)" --linger 4 >"$log" 2>&1 & ;;
    demo) "$agent_bin" --demo >"$log" 2>&1 & ;;
    sandbox)
      env RELAVOI_BASE_URL="$sandbox_url" RELAVOI_API_KEY="$sandbox_key" RELAVOI_TENANT_ID="$sandbox_tenant" \
        RELAVOI_API_SECRET_FILE="$work/secret" RELAVOI_USER_PHONE=+2348000000099 \
        "$agent_bin" --verbose >"$log" 2>&1 &
      ;;
  esac
  agent_pid=$!
  pids+=("$agent_pid")
}
stop_agent() {
  [ -z "$agent_pid" ] || { kill "$agent_pid" 2>/dev/null; wait "$agent_pid" 2>/dev/null; }
  agent_pid=
}
stop_sandbox() {
  [ -z "$sandbox_pid" ] || { kill "$sandbox_pid" 2>/dev/null; wait "$sandbox_pid" 2>/dev/null; }
  sandbox_pid=
}
sandbox_ready() { grep -q '^READY ' "$work/sandbox-$call.log"; }
play_call() {
  call=$1
  stop_agent
  if [ "$AGENT" = sandbox ]; then
    stop_sandbox
    local session=sess-shell-$call
    {
      echo '{"at":0,"session":{"id":"'$session'","proxyNumber":"+2348000000001","metadata":{"label":"Chowdeck rider"},"userPhones":["+2348000000099"],"expiresAt":900}}'
      echo '{"at":0,"waitForClient":true}'
      echo '{"at":1,"event":"call.incoming","payload":{"sessionId":"'$session'","proxyNumber":"+2348000000001"}}'
      echo '{"at":4,"event":"call.answered","payload":{"sessionId":"'$session'","cpaasSessionId":"cp-'$call'"}}'
      [ "$call" != 1 ] || echo '{"at":16,"event":"call.ended","payload":{"sessionId":"'$session'","cpaasSessionId":"cp-1","durationSeconds":12}}'
      [ "$call" != 3 ] || echo '{"at":30,"event":"call.ended","payload":{"sessionId":"'$session'","cpaasSessionId":"cp-3","durationSeconds":26}}'
    } >"$work/call-$call.scenario"
    "$sandbox_bin" --scenario "$work/call-$call.scenario" >"$work/sandbox-$call.log" 2>&1 &
    sandbox_pid=$!
    pids+=("$sandbox_pid")
    wait_for 30 sandbox_ready || { fail "relavoi-sandbox starts" "$(tail -3 "$work/sandbox-$call.log")"; finish; }
    sandbox_url=$(sed -n 's/^READY //p' "$work/sandbox-$call.log" | head -1)
  fi
  start_agent
}
restart_agent() {
  stop_agent
  start_agent
}
describe_agent() {
  case "$AGENT" in
    stand-in) echo "STAND-IN Tests/shell/stand-in-agent.py (not the agent)" ;;
    demo) echo "$agent_bin --demo" ;;
    sandbox) echo "$agent_bin on relavoi-sandbox $sandbox_url" ;;
  esac
}

sandbox_bin=${RELAVOI_SANDBOX_BIN:-$(dirname "$agent_bin")/relavoi-sandbox}
# relavoi-sandbox's fixed test credentials (docs/sandbox.md), never valid elsewhere.
sandbox_key=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d
sandbox_tenant=5a4d0000-0000-4000-8000-00000000c0de
if [ "$AGENT" = sandbox ]; then
  [ -x "$sandbox_bin" ] || { fail "sandbox binary" "no $sandbox_bin (make build)"; finish; }
  (umask 077 && printf '%s' rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de >"$work/secret")
fi

if [ "$AGENT" != stand-in ] && [ ! -x "$agent_bin" ]; then
  fail "agent binary" "no $agent_bin (make build)"
  finish
fi

# A private system bus (with a stand-in GDM, so the shell can lock), Xvfb, the extension's
# build for this shell installed from its zip, and the shell (Tests/lib/gnome-shell.sh).
start_private_system_bus || { fail "private system bus starts" "$gnome_shell_error"; finish; }
start_stand_in_gdm || fail "the stand-in GDM starts" "$gnome_shell_error"
start_xvfb_session || { fail "Xvfb starts" "$gnome_shell_error"; finish; }
if install_shell_extension; then
  ok "gnome-extensions install $(basename "$extension_zip") (GNOME Shell $major, $form build)"
else
  fail "the extension's build is installed" "$gnome_shell_error"
  finish
fi
if start_gnome_shell; then
  ok "gnome-shell $major started (pid $shell_pid, display $DISPLAY)"
else
  fail "gnome-shell starts" "$gnome_shell_error"
  finish
fi

if gnome-extensions enable "$uuid" 2>"$work/enable.log" &&
  wait_for 30 sh -c "\"$python\" \"$here/shell-eval.py\" \"Main.extensionManager.lookup('$uuid')?.state\" | grep -qx 1"; then
  ok "gnome-extensions enable $uuid: the extension is enabled"
else
  fail "gnome-extensions enable $uuid" "$(cat "$work/enable.log"; shell_eval "JSON.stringify(Main.extensionManager.lookup('$uuid')?.error ?? null)")"
  finish
fi

# 1. No agent, no pill.
if wait_for 10 pill_gone; then ok "no agent: the indicator is in the panel, hidden"; else fail "no agent: hidden indicator" "$(panel)"; fi
if wait_for 10 name_owned com.relavoi.Agent.ShellIndicator; then
  ok "the extension owns com.relavoi.Agent.ShellIndicator"
else
  fail "the extension owns com.relavoi.Agent.ShellIndicator"
fi

# 2. A call: a timer that advances, then no pill.
play_call 1
echo "# calls from: $(describe_agent) (pid $agent_pid)"
shots=$work/shots
mkdir -p "$shots"
if wait_for 45 pill_shown; then ok "a call: the pill appears ($(panel))"; else fail "a call: the pill appears" "$(panel)"; fi
# While it still rings, a picture of the ringing pill (best effort: ringing may be short).
if panel | grep -q '"name":"Incoming call'; then
  import -window root "$shots/full-ringing.png" 2>/dev/null &&
    convert "$shots/full-ringing.png" -crop 420x36+860+0 +repage "$shots/gnome-shell-indicator-ringing.png" 2>/dev/null
fi
pill_name() { panel | sed -n 's/.*"name":"\([^"]*\)".*/\1/p'; }
if wait_for 45 pill_timer; then
  t1=$(pill_timer) at1=$(date -u +%H:%M:%S.%N | cut -c1-12) n1=$(pill_name)
  echo "# panel at $at1 UTC: $(panel)"
  advanced=
  deadline=$((SECONDS + 10))
  while [ "$SECONDS" -lt "$deadline" ]; do
    t2=$(pill_timer)
    if [ -n "$t2" ] && [ "$(seconds_of "$t2")" -gt "$(seconds_of "$t1")" ]; then advanced=1; break; fi
    sleep 0.2
  done
  at2=$(date -u +%H:%M:%S.%N | cut -c1-12)
  if [ -n "$advanced" ]; then
    ok "the timer advances: '$t1' at $at1, '$t2' at $at2"
  else
    fail "the timer advances" "'$t1' at $at1, still '$t2' at $at2"
  fi
  # A screen reader reads the name again when it changes: it holds no timer, so it stays put.
  n2=$(pill_name)
  case "$n1" in
    *[0-9]:[0-9][0-9]*) fail "the pill's accessible name holds no timer" "'$n1'" ;;
    "$n2") ok "the pill's accessible name stays put while the timer ticks: '$n1'" ;;
    *) fail "the pill's accessible name stays put while the timer ticks" "'$n1', then '$n2'" ;;
  esac
else
  fail "the pill shows a timer" "$(panel)"
fi

# Screenshots: the pill, then the open menu (with the agent's banner, if still up).
timer_past() { [ "$(seconds_of "$(pill_timer)")" -ge "$1" ]; }
wait_for 15 timer_past 5
import -window root "$shots/full-live.png" 2>/dev/null &&
  convert "$shots/full-live.png" -crop 420x36+860+0 +repage "$shots/gnome-shell-indicator.png" 2>/dev/null
shell_eval "Main.panel.statusArea['$uuid'].menu.open(false); true" >/dev/null
if wait_for 10 sh -c "\"$python\" \"$here/shell-eval.py\" \"Main.panel.statusArea['$uuid'].menu.isOpen\" | grep -qx true"; then
  menu_text=$(shell_eval "(() => { const St = imports.gi.St; const t = []; const walk = a => { if (a instanceof St.Label && a.visible && a.text) t.push(a.text); a.get_children().forEach(walk); }; walk(Main.panel.statusArea['$uuid'].menu.box); return t.join(' | '); })()")
  case "$menu_text" in
    *'Copy number'*'Dismiss'*) ok "the menu lists the call with Copy number and Dismiss: $menu_text" ;;
    *) fail "the menu lists the call" "$menu_text" ;;
  esac
  import -window root "$shots/full-menu.png" 2>/dev/null &&
    convert "$shots/full-menu.png" -crop 940x240+340+0 +repage "$shots/gnome-shell-indicator-menu.png" 2>/dev/null
  shell_eval "Main.panel.statusArea['$uuid'].menu.close(false); true" >/dev/null
else
  fail "the menu opens"
fi
if [ -n "${SHOTS:-}" ]; then
  mkdir -p "$SHOTS" && cp "$shots"/gnome-shell-indicator*.png "$SHOTS/" && echo "# screenshots in $SHOTS"
fi

echo "# panel at $(date -u +%T) UTC, menu closed: $(panel)"
if wait_for 60 pill_gone; then echo "# panel at $(date -u +%T) UTC, call over: $(panel)"; ok "after the call the pill is gone"; else fail "after the call the pill is gone" "$(panel)"; fi

# 3. Agent stopped mid-call and started again; Dismiss from the menu.
play_call 2
if wait_for 45 pill_timer; then ok "the next call shows the pill ($(panel))"; else fail "the next call shows a timer" "$(panel)"; fi
# A few seconds into the call, so a timer that started again from 0 after the restart shows.
wait_for 20 timer_past 3
before=$(pill_timer)
stop_agent
if wait_for 20 pill_gone; then ok "the agent stopped mid-call (timer at '$before'): the pill is gone"; else fail "the agent stopped: pill gone" "$(panel)"; fi
restart_agent
if wait_for 45 pill_shown; then ok "the agent started again: the pill is back ($(panel))"; else fail "the agent started again: the pill is back" "$(panel)"; fi
if [ "$AGENT" = sandbox ]; then
  # The same call, found again over REST: its timer goes on from the real answer time.
  after=$(wait_for 20 pill_timer && pill_timer)
  if [ -n "$after" ] && [ -n "$before" ] && [ "$(seconds_of "$after")" -ge "$(seconds_of "$before")" ]; then
    ok "... with the same call's timer going on ('$before' before the restart, '$after' after)"
  else
    fail "the timer goes on after the restart" "'$before' before, '${after:-no timer}' after"
  fi
fi
# Copy number puts the call's number on the clipboard.
# The menu is opened first, as a person does: a closed menu's rows are made when it opens.
shell_eval "(() => { const St = imports.gi.St; const menu = Main.panel.statusArea['$uuid'].menu; menu.open(false); const item = menu._getMenuItems().find(i => i.label?.text === 'Copy number'); global.relavoiTestClipboard = null; if (!item) return false; item.activate(null); St.Clipboard.get_default().get_text(St.ClipboardType.CLIPBOARD, (c, text) => { global.relavoiTestClipboard = text; }); return true; })()" >/dev/null
number_copied() { shell_eval "global.relavoiTestClipboard" | grep -qE '^"\+[0-9 ]+"$'; }
if wait_for 10 number_copied; then
  ok "Copy number puts $(shell_eval "global.relavoiTestClipboard") on the clipboard"
else
  fail "Copy number" "clipboard: $(shell_eval "global.relavoiTestClipboard")"
fi
dismissed=$(shell_eval "(() => { const menu = Main.panel.statusArea['$uuid'].menu; menu.open(false); const item = menu._getMenuItems().find(i => i.label?.text === 'Dismiss'); if (!item) return false; item.activate(null); return true; })()")
if [ "$dismissed" = true ] && wait_for 20 pill_gone; then
  ok "Dismiss from the menu: the call leaves and the pill is gone"
else
  fail "Dismiss from the menu" "activated: $dismissed; $(panel)"
fi
stop_agent
stop_sandbox

# 4. The lock screen: the call under the clock, only what the settings allow.
# Every visible text of the unlock dialog, and whether the shell is locked.
LOCK_JS="(() => {
  const St = imports.gi.St;
  const d = Main.screenShield?._dialog;
  const texts = [];
  const walk = a => { if (a instanceof St.Label && a.visible && a.text) texts.push(a.text); a.get_children().forEach(walk); };
  if (d && d.visible) walk(d);
  return {locked: Main.sessionMode.isLocked, texts};
})()"
lock_texts() { shell_eval "$LOCK_JS"; }
locked() { lock_texts | grep -q '"locked":true'; }
unlocked() { lock_texts | grep -q '"locked":false'; }
card_timer() { lock_texts | grep -o '"[0-9][0-9]:[0-9][0-9]"' | tr -d '"' | head -1 | grep .; }
card_shows() { lock_texts | grep -qF "$1"; }
card_gone() { ! lock_texts | grep -qF 'Chowdeck rider'; }
write_conf() { mkdir -p "$XDG_CONFIG_HOME/relavoi" && printf '[agent]\n%s\n' "$1" >"$XDG_CONFIG_HOME/relavoi/agent.conf"; }
if [ -z "$can_lock" ]; then
  skip "the lock screen" "no /run/systemd/seats here: GNOME Shell builds no lock screen"
elif [ "$AGENT" != sandbox ]; then
  skip "the lock screen" "needs the agent's lock-screen setting (AGENT=sandbox)"
else
  write_conf "dismiss-policy = after:8"
  play_call 3
  wait_for 45 pill_timer || fail "the lock-screen call shows a timer" "$(panel)"
  shell_eval "Main.screenShield.lock(false); true" >/dev/null
  if wait_for 20 locked && wait_for 20 card_timer; then
    l1=$(lock_texts) c1=$(card_timer)
    echo "# lock screen at $(date -u +%T) UTC: $l1"
    ok "locked mid-call: a card under the clock ($c1)"
    case "$l1" in
      *'"Chowdeck rider"'*'Verified · •••• 0001'*) ok "the card shows the label, the badge and the number's last digits" ;;
      *) fail "the card shows the label, badge and last digits" "$l1" ;;
    esac
    case "$l1" in
      *'800 000'* | *8000000001*) fail "the full number is not on the lock screen" "$l1" ;;
      *) ok "the full number is not on the lock screen" ;;
    esac
    timer_moved() { [ "$(seconds_of "$(card_timer)")" -gt "$(seconds_of "$c1")" ]; }
    if wait_for 10 timer_moved; then
      echo "# lock screen at $(date -u +%T) UTC: $(lock_texts)"
      ok "the card's timer advances while locked ('$c1', then '$(card_timer)')"
    else
      fail "the card's timer advances" "'$c1', then '$(card_timer)'"
    fi
    if pill_gone && [ "$(shell_eval "Main.panel.statusArea['$uuid'].reactive")" = false ]; then
      ok "the pill is hidden on the lock screen, its menu off: the card shows what is allowed ($(panel))"
    else
      fail "the pill hidden on the lock screen, menu off" "$(panel) reactive=$(shell_eval "Main.panel.statusArea['$uuid'].reactive")"
    fi
    gsettings set org.gnome.desktop.notifications show-in-lock-screen false
    if wait_for 10 card_gone; then ok "GNOME's show-in-lock-screen off: no card"; else fail "show-in-lock-screen off: no card" "$(lock_texts)"; fi
    gsettings set org.gnome.desktop.notifications show-in-lock-screen true
    if wait_for 10 card_shows 'Chowdeck rider'; then ok "show-in-lock-screen on again: the card is back"; else fail "show-in-lock-screen on: card back" "$(lock_texts)"; fi
    # Relavoi's own switch in Settings → Notifications (gnome-shell's id for com.relavoi.Agent).
    relavoi_app=org.gnome.desktop.notifications.application:/org/gnome/desktop/notifications/application/com-relavoi-agent/
    gsettings set "$relavoi_app" show-in-lock-screen false
    if wait_for 10 card_gone; then ok "Relavoi's own show-in-lock-screen off: no card"; else fail "Relavoi's show-in-lock-screen off: no card" "$(lock_texts)"; fi
    gsettings reset "$relavoi_app" show-in-lock-screen
    if wait_for 10 card_shows 'Chowdeck rider'; then ok "Relavoi's switch back on: the card is back"; else fail "Relavoi's switch on: card back" "$(lock_texts)"; fi
    if wait_for 45 card_shows 'Call ended · 00:26'; then
      echo "# lock screen at $(date -u +%T) UTC: $(lock_texts)"
      ok "after call.ended the card says so"
    else
      fail "after call.ended the card says so" "$(lock_texts)"
    fi
    if wait_for 30 card_gone; then ok "the ended card goes per the dismiss policy (after:8)"; else fail "the ended card goes" "$(lock_texts)"; fi
    # lock-screen = off: a call while locked shows nothing on the lock screen.
    write_conf "lock-screen = off"
    play_call 4
    # The pill and the cards are drawn from the same Calls change: once the extension has
    # the live call, a card would be there, and the pill too.
    extension_has_live_call() {
      [ "$(shell_eval "Main.panel.statusArea['$uuid']._calls.some(c => c.phase === 'live')")" = true ]
    }
    if ! wait_for 45 extension_has_live_call; then
      fail "lock-screen = off: the extension has the call" "$(panel)"
    elif card_timer >/dev/null || card_shows 'Chowdeck rider' || ! pill_gone; then
      fail "lock-screen = off: no card, no pill" "$(lock_texts) $(panel)"
    else
      ok "lock-screen = off: the call is live, and neither a card nor the pill shows it ($(lock_texts) $(panel))"
    fi
  else
    fail "locked mid-call: a card under the clock" "$(lock_texts)"
  fi
  shell_eval "Main.screenShield.deactivate(false); true" >/dev/null
  if wait_for 20 unlocked && wait_for 20 pill_shown && [ "$(shell_eval "Main.panel.statusArea['$uuid'].reactive")" = true ]; then
    ok "unlocked: the pill is back in the top bar, its menu on ($(panel))"
  else
    fail "unlocked: the pill is back" "$(lock_texts) $(panel)"
  fi
  stop_agent
  stop_sandbox
  rm -f "$XDG_CONFIG_HOME/relavoi/agent.conf"
fi

# 5. Disable takes the pill and the bus name away; enable brings them back.
gnome-extensions disable "$uuid" 2>/dev/null
if wait_for 20 sh -c "\"$python\" \"$here/shell-eval.py\" \"Main.panel.statusArea['$uuid'] === undefined\" | grep -qx true" &&
  wait_for 10 sh -c "! gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner com.relavoi.Agent.ShellIndicator | grep -q true"; then
  ok "gnome-extensions disable: no indicator, com.relavoi.Agent.ShellIndicator released"
else
  fail "gnome-extensions disable" "$(panel)"
fi
gnome-extensions enable "$uuid" 2>/dev/null
if wait_for 20 pill_gone && wait_for 10 name_owned com.relavoi.Agent.ShellIndicator; then
  ok "enabled again: the indicator is back (hidden, no call) and owns the name"
else
  fail "enabled again" "$(panel)"
fi

if kill -0 "$shell_pid" 2>/dev/null; then ok "gnome-shell still running"; else fail "gnome-shell still running"; fi
if grep -n "$uuid" "$work/gnome-shell.log" | grep -iE 'error|exception|warning' >"$work/ext-errors.txt"; then
  fail "no errors or warnings of the extension in the shell's log" "$(head -5 "$work/ext-errors.txt")"
else
  ok "no errors or warnings of the extension in the shell's log"
fi
finish
