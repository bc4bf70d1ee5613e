#!/usr/bin/env bash
# Budgie headless (Debian 12: 10.7; in a Debian 13 root through run-in-root.sh:
# 10.9): Xvfb, a private session bus, settings in memory, budgie-wm,
# budgie-daemon (its notification server and popups; 10.9's also the
# StatusNotifierWatcher) and budgie-panel (Raven, the notification list, and
# the tray applet: XEmbed in 10.7, StatusNotifierItem in 10.9).
# The repository's icons go to the private XDG_DATA_HOME, as an install puts
# them in the system's, so the tray draws the agent's icon names (in a root,
# bind them: BIND="$PWD/icons").
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export GSETTINGS_BACKEND=${GSETTINGS_BACKEND:-memory} LIBGL_ALWAYS_SOFTWARE=1 XDG_CURRENT_DESKTOP=Budgie:GNOME XDG_SESSION_TYPE=x11
export XDG_CONFIG_HOME=$RUN_DIR/config XDG_DATA_HOME=$RUN_DIR/data XDG_CACHE_HOME=$RUN_DIR/cache XDG_RUNTIME_DIR=$RUN_DIR/runtime
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME/icons" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
icons=$here/../../icons
[ -d "$icons/hicolor" ] && cp -r "$icons/hicolor" "$XDG_DATA_HOME/icons/"
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
