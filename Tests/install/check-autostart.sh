#!/usr/bin/env bash
# Starts the agent the way a session does, from the installed XDG autostart
# entry (gio launch), on a private session bus against relavoi-sandbox and
# python3-dbusmock's notification daemon: it must own com.relavoi.Agent, and a
# second start must leave exactly one agent.
#
#   Tests/install/check-autostart.sh [AGENT_BIN] [SANDBOX_BIN]
# (defaults: .build/debug/relavoi-agent and .build/debug/relavoi-sandbox)
# Ends with "N passed, N failed"; exits 1 when a check failed.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
agent=${1:-$repo/.build/debug/relavoi-agent}
sandbox=${2:-$repo/.build/debug/relavoi-sandbox}

if [ "${RELAVOI_AUTOSTART_INNER:-0}" != 1 ]; then
  RELAVOI_AUTOSTART_INNER=1 exec dbus-run-session --config-file="$repo/scripts/session-bus.conf" -- "$0" "$agent" "$sandbox"
fi

. "$repo/Tests/lib/checks.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-autostart-test.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  pkill -TERM -f "^$work/prefix/bin/relavoi-agent" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
has_owner() {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}
agents_running() { pgrep -c -f "^$work/prefix/bin/relavoi-agent" 2>/dev/null || echo 0; }
one_agent() { [ "$(agents_running)" = 1 ] && has_owner com.relavoi.Agent; }

# Install into a real temporary prefix so Exec= points at the installed binary.
PREFIX=$work/prefix XDG_AUTOSTART_DIR=$work/autostart SYSTEMD_ENABLE=0 AGENT_BIN=$agent \
  "$repo/scripts/install.sh" install >/dev/null || { fail "install"; summary; exit 1; }
entry=$work/autostart/com.relavoi.Agent.desktop
[ -f "$entry" ] && ok "autostart entry installed" || fail "autostart entry installed"

/usr/bin/python3 -m dbusmock --template notification_daemon >/dev/null 2>&1 &
pids+=($!)
wait_for 30 has_owner org.freedesktop.Notifications && ok "notification server up" || fail "notification server up"

RELAVOI_SANDBOX_SECRET= "$sandbox" --port 0 > "$work/sandbox.out" 2>"$work/sandbox.err" &
pids+=($!)
wait_for 30 grep -q READY "$work/sandbox.out" || fail "sandbox up"
base=$(sed -n 's/^READY //p' "$work/sandbox.out" | head -1)

# The session's environment: the sandbox's test account, the secret in the environment.
export RELAVOI_BASE_URL=$base RELAVOI_API_KEY=rk_test_$(printf '5a4d%.0s' $(seq 12)) \
  RELAVOI_TENANT_ID=5a4d0000-0000-4000-8000-00000000c0de \
  RELAVOI_API_SECRET=rs_$(printf '0badc0de%.0s' $(seq 8)) XDG_CONFIG_HOME=$work/config
gio launch "$entry" >"$work/first.log" 2>&1
if wait_for 30 has_owner com.relavoi.Agent; then ok "agent from the autostart entry owns com.relavoi.Agent"; else
  fail "agent owns com.relavoi.Agent" "$(tail -3 "$work/first.log")"; fi
# The second agent says it runs already (in C, so in English) and exits; then one is left.
LC_ALL=C.UTF-8 LANGUAGE= gio launch "$entry" >"$work/second.log" 2>&1
if ! wait_for 30 grep -q "already running" "$work/second.log"; then
  fail "a second start says the agent is already running" "$(tail -3 "$work/second.log")"
elif wait_for 30 one_agent; then
  ok "a second start leaves one agent"
else
  fail "a second start leaves one agent" "$(agents_running) running"
fi
pkill -TERM -f "^$work/prefix/bin/relavoi-agent"
wait_for 30 bash -c "! pgrep -f '^$work/prefix/bin/relavoi-agent' >/dev/null" && ok "SIGTERM ends it" || fail "SIGTERM ends it"
summary
