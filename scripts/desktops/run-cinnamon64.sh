#!/usr/bin/env bash
# Cinnamon 6.4 (Debian 13) headless, run inside a Debian 13 root with cinnamon
# installed (`apt-get install --no-install-recommends cinnamon` there):
#   scripts/desktops/run-in-root.sh /var/tmp/desktops-trixie run-cinnamon64.sh
# As run-cinnamon.sh: Xvfb, a private session bus, settings in memory,
# `cinnamon --replace` (its notification daemon is in the shell), and
# xapp-sn-watcher when TRAY=1. The bus socket and the display are in /tmp, so
# clients (the host-built agent) run on the host.
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export GSETTINGS_BACKEND=memory LIBGL_ALWAYS_SOFTWARE=1 XDG_CURRENT_DESKTOP=X-Cinnamon
# muffin 6.4 without it: "Window manager warning: Unsupported session type", exit
export XDG_SESSION_TYPE=x11
export XDG_CONFIG_HOME=$RUN_DIR/config XDG_DATA_HOME=$RUN_DIR/data XDG_CACHE_HOME=$RUN_DIR/cache
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
start_bus
start_xvfb
start cinnamon cinnamon --replace
wait_owner org.freedesktop.Notifications 90
if [ "${TRAY:-0}" = 1 ] && [ -x /usr/libexec/xapps/sn-watcher/xapp-sn-watcher ]; then
    start sn-watcher /usr/libexec/xapps/sn-watcher/xapp-sn-watcher
    wait_owner org.kde.StatusNotifierWatcher 15 || true
fi
ready
hold
