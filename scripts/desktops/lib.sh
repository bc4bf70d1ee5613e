# Shared helpers of the scripts/desktops run scripts (sourced, not run).
# Each run script starts a private session bus, a display (Xvfb, or a headless
# sway for the wlroots servers) and one desktop's notification server, writes
# the environment to "$RUN_DIR/env" and prints "READY" once the server owns
# org.freedesktop.Notifications; SIGTERM (or Ctrl-C) stops everything it started.
set -euo pipefail

[ -n "${RUN_DIR:-}" ] || unset RUN_DIR
RUN_DIR=${RUN_DIR:-$(mktemp -d /tmp/relavoi-desktop.XXXXXX)}
mkdir -p "$RUN_DIR"
chmod 755 "$RUN_DIR"
started=()

stop_all() {
    local i
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do kill "${started[$i]}" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_all EXIT
trap 'exit 0' TERM INT

# start NAME CMD...: runs CMD in the background, its output in $RUN_DIR/NAME.log.
start() {
    local name=$1
    shift
    "$@" >"$RUN_DIR/$name.log" 2>&1 &
    started+=($!)
}

# A private session bus (the session config, so .service files activate).
start_bus() {
    local address
    address=$(dbus-daemon --session --print-address=1 --print-pid=2 --fork 2>"$RUN_DIR/bus.pid" | head -n1)
    started+=("$(cat "$RUN_DIR/bus.pid")")
    export DBUS_SESSION_BUS_ADDRESS=$address
}

# Xvfb on the first free display number.
start_xvfb() {
    local display=${1:-90}
    while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
    start xvfb Xvfb ":$display" -screen 0 "${GEOMETRY:-1280x800}x24" -nolisten tcp
    for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
    export DISPLAY=":$display"
}

has_owner() { # bus name
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

wait_owner() { # bus name, seconds
    local i
    for ((i = 0; i < ${2:-30} * 10; i++)); do has_owner "$1" && return 0; sleep 0.1; done
    echo "no owner of $1 after ${2:-30} s; logs in $RUN_DIR" >&2
    return 1
}

# Writes the environment a client needs and says READY.
ready() {
    {
        echo "export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS'"
        echo "export DISPLAY='${DISPLAY:-}'"
        echo "export WAYLAND_DISPLAY='${WAYLAND_DISPLAY:-}'"
        echo "export XDG_RUNTIME_DIR='${XDG_RUNTIME_DIR:-}'"
        echo "export RUN_DIR='$RUN_DIR'"
    } >"$RUN_DIR/env"
    echo "READY $RUN_DIR"
}

# Stays until SIGTERM.
hold() { while :; do sleep 1; done; }
