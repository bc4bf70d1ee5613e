#!/usr/bin/env bash
# Xfce headless: Xvfb, a private session bus, xfconfd, xfce4-notifyd (Debian 12:
# 0.7; in a Debian 13 root: 0.9) with its log on (LOG=0: off) and xfce4-panel
# (PANEL=1, default) with its status tray (StatusNotifierItem host).
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export XDG_CURRENT_DESKTOP=XFCE XDG_CONFIG_HOME=$RUN_DIR/config XDG_DATA_HOME=$RUN_DIR/data
export XDG_CACHE_HOME=$RUN_DIR/cache
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
start_bus
start_xvfb
libdir=$(dirname "$(find /usr/lib -path '*xfce4/notifyd/xfce4-notifyd' | head -n1)")
[ -x /usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd ] && start xfconfd /usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd
sleep 0.5
xfconf-query -c xfce4-notifyd -p /notification-log -n -t bool -s "$([ "${LOG:-1}" = 1 ] && echo true || echo false)"
xfconf-query -c xfce4-notifyd -p /log-level -n -t uint -s 1 # log every notification (0.7: 1 = always)
xfconf-query -c xfce4-notifyd -p /log-level-apps -n -t uint -s 0
xfconf-query -c xfce4-notifyd -p /log-max-size -n -t uint -s 0
start notifyd "$libdir/xfce4-notifyd"
wait_owner org.freedesktop.Notifications 30
if [ "${PANEL:-1}" = 1 ]; then
    start panel xfce4-panel --disable-wm-check
    sleep 3
fi
ready
hold
