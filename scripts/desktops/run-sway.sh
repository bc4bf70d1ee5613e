#!/usr/bin/env bash
# A wlroots desktop headless: sway (WLR_BACKENDS=headless, pixman renderer) on a
# private session bus, with one notification server: mako (default) or swaync,
# and waybar with its tray (WAYBAR=1, default) as the StatusNotifierItem host.
#   scripts/desktops/run-sway.sh [mako|swaync]
# sway refuses to run as root: as root this runs itself again as
# $DESKTOP_USER (default relavoi-desk; create it with `useradd -m relavoi-desk`),
# and clients must then run as that user too (the bus takes only its owner).
# Prints "READY RUN_DIR"; RUN_DIR/env has the environment; grim takes screenshots.
server=${1:-mako}
if [ "$(id -u)" = 0 ]; then
    exec runuser -u "${DESKTOP_USER:-relavoi-desk}" -- env RUN_DIR="${RUN_DIR:-}" WAYBAR="${WAYBAR:-1}" \
        GEOMETRY="${GEOMETRY:-}" "$0" "$server"
fi
[ -n "${GEOMETRY:-}" ] || unset GEOMETRY
[ -n "${RUN_DIR:-}" ] || unset RUN_DIR
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
export XDG_RUNTIME_DIR=$RUN_DIR/runtime
mkdir -p "$XDG_RUNTIME_DIR" "$RUN_DIR/config"
chmod 700 "$XDG_RUNTIME_DIR"
export XDG_CONFIG_HOME=$RUN_DIR/config
export WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman XDG_CURRENT_DESKTOP=sway
unset DISPLAY WAYLAND_DISPLAY
geometry=${GEOMETRY:-1280x800}
cat >"$RUN_DIR/sway.conf" <<CONF
output HEADLESS-1 resolution $geometry position 0 0
default_border none
CONF
start_bus
start sway sway -c "$RUN_DIR/sway.conf"
for _ in $(seq 100); do
    socket=$(find "$XDG_RUNTIME_DIR" -maxdepth 1 -name 'wayland-*' ! -name '*.lock' | head -n1)
    [ -n "$socket" ] && break
    sleep 0.1
done
export WAYLAND_DISPLAY=$(basename "$socket")
if [ "${WAYBAR:-1}" = 1 ]; then
    mkdir -p "$XDG_CONFIG_HOME/waybar"
    cat >"$XDG_CONFIG_HOME/waybar/config" <<'CONF'
{ "layer": "top", "position": "bottom", "height": 28,
  "modules-left": ["sway/workspaces"], "modules-right": ["tray", "clock"],
  "tray": { "icon-size": 18, "spacing": 8, "show-passive-items": true } }
CONF
    start waybar waybar
    wait_owner org.kde.StatusNotifierWatcher 20 || true
fi
case $server in
mako) start mako mako ;;
swaync) start swaync swaync ;;
*) echo "unknown server $server" >&2; exit 2 ;;
esac
wait_owner org.freedesktop.Notifications 30
ready
hold
