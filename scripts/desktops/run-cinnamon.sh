#!/usr/bin/env bash
# Cinnamon headless: Xvfb, a private session bus, settings in memory,
# `cinnamon --replace` (its notification daemon is in the shell), and
# xapp-sn-watcher (the StatusNotifierItem host of the panel's xapp-status
# applet; TRAY=0: not started). On the Debian 12 host (5.6), or inside a
# Debian 13 root with cinnamon installed (6.4):
#   scripts/desktops/run-cinnamon.sh
#   scripts/desktops/run-in-root.sh /var/tmp/desktops-trixie run-cinnamon.sh
# (the bus socket and the display are in /tmp, so clients, the host-built
# agent too, run on the host).
# ICONS (default: this repository's icons/, which run-in-root.sh binds into a
# root) goes into the session's own XDG_DATA_HOME as icons/hicolor, as an
# install puts the agent's icons into the system's hicolor theme; ICONS= for
# none. Without them xapp-sn-watcher passes the applet the path of the
# icon's -symbolic file from the item's IconThemePath, which the applet does
# not draw (docs/servers.md, Cinnamon's tray item).
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export GSETTINGS_BACKEND=${GSETTINGS_BACKEND:-memory} LIBGL_ALWAYS_SOFTWARE=1 XDG_CURRENT_DESKTOP=X-Cinnamon
# muffin 6.4 without it: "Window manager warning: Unsupported session type", exit
export XDG_SESSION_TYPE=x11
export XDG_CONFIG_HOME=$RUN_DIR/config XDG_DATA_HOME=$RUN_DIR/data XDG_CACHE_HOME=$RUN_DIR/cache
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
icons=${ICONS-$(cd "$here/../.." && pwd)/icons}
if [ -n "$icons" ] && [ -d "$icons/hicolor" ]; then
    mkdir -p "$XDG_DATA_HOME/icons"
    ln -sfn "$icons/hicolor" "$XDG_DATA_HOME/icons/hicolor"
fi
start_bus
start_xvfb
start cinnamon cinnamon --replace
wait_owner org.freedesktop.Notifications 90
# Debian 12's xapp-sn-watcher 2.4 is in libexec, Debian 13's 2.8 in the multiarch lib folder
watcher=$(ls /usr/libexec/xapps/sn-watcher/xapp-sn-watcher /usr/lib/*/xapps/xapp-sn-watcher 2>/dev/null | head -n1 || true)
if [ "${TRAY:-1}" = 1 ] && [ -n "$watcher" ]; then
    start sn-watcher "$watcher"
    wait_owner org.kde.StatusNotifierWatcher 15 || true
fi
ready
hold
