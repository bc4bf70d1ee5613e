#!/usr/bin/env bash
# Cinnamon (Debian 12: 5.6) headless: Xvfb, a private session bus, settings in
# memory, `cinnamon --replace` (its notification daemon is in the shell), and
# xapp-sn-watcher (the StatusNotifierItem host of Cinnamon's tray applet).
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export GSETTINGS_BACKEND=memory LIBGL_ALWAYS_SOFTWARE=1 XDG_CURRENT_DESKTOP=X-Cinnamon
start_bus
start_xvfb
start cinnamon cinnamon --replace
wait_owner org.freedesktop.Notifications 60
if [ "${TRAY:-1}" = 1 ] && [ -x /usr/libexec/xapps/sn-watcher/xapp-sn-watcher ]; then
    start sn-watcher /usr/libexec/xapps/sn-watcher/xapp-sn-watcher
    wait_owner org.kde.StatusNotifierWatcher 15 || true
fi
ready
hold
