#!/usr/bin/env bash
# KDE Plasma 6 headless with the Relavoi widget com.relavoi.call, in a Debian root that has
# Plasma (run it there with run-in-root.sh): Xvfb, a private session bus, and
#   MODE=panel (default)  plasmashell (its default layout: a desktop and a bottom panel with
#                         the system tray, whose notifications applet is the notification
#                         server); the widget is installed, not added: the agent's question,
#                         or `evaluate SCRIPT` below, adds it;
#   MODE=window           `plasmawindowed APPLET` alone (APPLET: com.relavoi.call by default;
#                         org.kde.plasma.digitalclock for the clock the bench compares with).
# The widget comes from $RUN_DIR/plasmoid (scripts/build-plasmoid.sh --out $RUN_DIR/plasmoid
# on the host, before) into the session's own XDG_DATA_HOME, with the badge icons.
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment for clients, and WIDGET_PID (the
# process that draws the widget: plasmashell or plasmawindowed).
#   scripts/desktops/run-in-root.sh /var/tmp/desktops-forky run-plasma-widget.sh
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
icons=$(cd "$here/../.." && pwd)/icons
[ -d "$RUN_DIR/plasmoid/com.relavoi.call" ] || { echo "no $RUN_DIR/plasmoid/com.relavoi.call (scripts/build-plasmoid.sh --out \$RUN_DIR/plasmoid)" >&2; exit 1; }
export XDG_CURRENT_DESKTOP=KDE KDE_SESSION_VERSION=6 KDE_FULL_SESSION=true XDG_SESSION_TYPE=x11
export XDG_CONFIG_HOME=$RUN_DIR/config XDG_DATA_HOME=$RUN_DIR/data XDG_CACHE_HOME=$RUN_DIR/cache
export XDG_RUNTIME_DIR=$RUN_DIR/runtime HOME=$RUN_DIR/home QT_QPA_PLATFORM=xcb
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME/plasma/plasmoids" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR" "$HOME"
chmod 700 "$XDG_RUNTIME_DIR"
cp -r "$RUN_DIR/plasmoid/com.relavoi.call" "$XDG_DATA_HOME/plasma/plasmoids/"
cp -r "$RUN_DIR/plasmoid/locale" "$XDG_DATA_HOME/"
mkdir -p "$XDG_DATA_HOME/icons"
cp -r "$icons/hicolor" "$XDG_DATA_HOME/icons/"
start_bus
start_xvfb
case ${MODE:-panel} in
panel)
    # plasmashell aborts its shell load unless the activity manager already runs.
    start kactivitymanagerd /usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd
    wait_owner org.kde.ActivityManager 30
    # Global shortcuts (a widget's own opens it by keyboard); the root has no .service for it.
    kga=/usr/lib/x86_64-linux-gnu/libexec/kglobalacceld
    if [ -x "$kga" ]; then
        start kglobalacceld "$kga"
        wait_owner org.kde.kglobalaccel 30
    fi
    start plasmashell plasmashell --no-respawn
    widget=${started[-1]}
    wait_owner org.kde.plasmashell 60
    ;;
window)
    start plasmawindowed plasmawindowed "${APPLET:-com.relavoi.call}"
    widget=${started[-1]}
    sleep 3
    ;;
*) echo "MODE must be panel or window" >&2; exit 2 ;;
esac
ready
echo "export WIDGET_PID='$widget'" >>"$RUN_DIR/env"
echo "export XDG_CURRENT_DESKTOP=KDE" >>"$RUN_DIR/env"
hold
