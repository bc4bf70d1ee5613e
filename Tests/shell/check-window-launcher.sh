#!/usr/bin/env bash
# The extension opens the Relavoi window: each build's windowLauncher.js (the pill's
# "Settings…" and prefs.js use it) sends org.freedesktop.Application.ActivateAction
# "show-page" with the page to com.relavoi.Agent.Settings, here python3-dbusmock standing in
# for relavoi-window on a private session bus.
#   usage: Tests/shell/check-window-launcher.sh BUILDS_DIR   (BUILDS_DIR/{legacy,esm}/relavoi@relavoi.com)
# Prints "ok - …"/"FAIL - …" lines; exit 1 when a check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$repo/Tests/lib/checks.sh"
builds=$1
if [ "${2:-}" != --inside ]; then
  exec dbus-run-session --config-file="$repo/scripts/session-bus.conf" -- "$0" "$builds" --inside
fi

name=com.relavoi.Agent.Settings path=/com/relavoi/Agent/Settings
/usr/bin/python3 -m dbusmock "$name" "$path" org.freedesktop.Application >/dev/null 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null; wait $mock 2>/dev/null' EXIT
mock_call() { gdbus call --session --dest "$name" --object-path "$path" --method "org.freedesktop.DBus.Mock.$1" "${@:2}"; }
wait_for 15 mock_call GetCalls || { fail "the stand-in window starts (python3-dbusmock)"; summary; exit; }
mock_call AddMethod org.freedesktop.Application ActivateAction 'sava{sv}' '' '' >/dev/null
for form in legacy esm; do
  mock_call ClearCalls >/dev/null
  out=$(gjs -m "$repo/Tests/shell/window-launcher-test.js" "$form" "$builds/$form/relavoi@relavoi.com" settings 2>&1)
  calls=$(mock_call GetMethodCalls ActivateAction 2>&1)
  if [ "$out" = ok ] && [[ $calls == *"<'show-page'>, <[<'settings'>]>"* ]]; then
    ok "$form: openWindow('settings') activates show-page('settings') on $name"
  else
    fail "$form: openWindow('settings') reaches the window" "$out / $calls"
  fi
done
summary
