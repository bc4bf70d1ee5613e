#!/usr/bin/env bash
# Budgie (Debian 12: 10.7) headless: Xvfb, a private session bus, settings in
# memory, budgie-wm, budgie-daemon (its notification server and popups) and
# budgie-panel (Raven, the notification list, and the tray applet).
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export GSETTINGS_BACKEND=${GSETTINGS_BACKEND:-memory} LIBGL_ALWAYS_SOFTWARE=1 XDG_CURRENT_DESKTOP=Budgie:GNOME XDG_SESSION_TYPE=x11
# budgie-panel crashes without a system bus (libupower-glib): a second private bus stands in.
system=$(dbus-daemon --session --print-address=1 --print-pid=2 --fork 2>"$RUN_DIR/system-bus.pid" | head -n1)
started+=("$(cat "$RUN_DIR/system-bus.pid")")
export DBUS_SYSTEM_BUS_ADDRESS=$system
start_bus
start_xvfb
start budgie-wm budgie-wm --replace
sleep 2
start budgie-daemon budgie-daemon --replace
wait_owner org.freedesktop.Notifications 60
[ "${PANEL:-1}" = 1 ] && start budgie-panel budgie-panel --replace
sleep 3
ready
hold
