# The headless GNOME Shell that Tests/shell/check-gnome-shell.sh, check-gnome-shell-a11y.sh
# and scripts/bench-desktop.sh start, one way for all three; source it, do not run it:
#   . "$repo/Tests/lib/checks.sh"; . "$repo/Tests/lib/gnome-shell.sh"
# Inside the caller's private session bus, with $work its scratch folder and `pids` its array
# of what to stop (each step appends what it starts). A step that fails returns 1 with the
# reason in $gnome_shell_error; the caller says so in its own way.

gnome_shell_error=
gnome_shell_eval=$(cd "$(dirname "${BASH_SOURCE[0]}")/../shell" && pwd)/shell-eval.py

# A private system bus, always: the shell aborts without one (containers often have none),
# and the stand-in GDM that lets it lock must never sit on a real one.
start_private_system_bus() {
  cat >"$work/system.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$work/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow user="*"/><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
</busconfig>
EOF
  dbus-daemon --config-file="$work/system.conf" --nofork >"$work/system-bus.log" 2>&1 &
  pids+=($!)
  wait_for 10 test -S "$work/system_bus_socket" || { gnome_shell_error=$(cat "$work/system-bus.log"); return 1; }
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$work/system_bus_socket
}

# The lock screen needs logind's seats folder (as on a systemd machine) and a GDM answer:
# sets can_lock=1 when both are there. No seats folder: can_lock stays empty, no error.
start_stand_in_gdm() {
  can_lock=
  [ -d /run/systemd/seats ] || return 0
  /usr/bin/python3 "$(dirname "$gnome_shell_eval")/stand-in-gdm.py" >"$work/gdm.log" 2>&1 &
  pids+=($!)
  wait_for 10 grep -q READY "$work/gdm.log" || { gnome_shell_error=$(cat "$work/gdm.log"); return 1; }
  can_lock=1
}

# Xvfb on a free display (exports DISPLAY), then private XDG folders and keyfile GSettings
# for an X11 GNOME session without an AT-SPI bus (a caller that wants one unsets NO_AT_BRIDGE).
start_xvfb_session() {
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp +extension GLX 3>"$work/display" >"$work/xvfb.log" 2>&1 &
  pids+=($!)
  wait_for 20 test -s "$work/display" || { gnome_shell_error=$(tail -3 "$work/xvfb.log"); return 1; }
  export DISPLAY=:$(head -1 "$work/display")
  export XDG_RUNTIME_DIR=$work/runtime XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
  mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
  chmod 700 "$XDG_RUNTIME_DIR"
  export GSETTINGS_BACKEND=keyfile XDG_SESSION_TYPE=x11 XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_DESKTOP=gnome NO_AT_BRIDGE=1
  unset WAYLAND_DISPLAY
}

# The extension's build for the installed shell (sets major, form, extension_zip), installed
# from its zip into the private XDG_DATA_HOME with `gnome-extensions install`.
install_shell_extension() {
  major=$(gnome-shell --version | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')
  form=legacy
  [ "${major:-0}" -lt 45 ] || form=esm
  local repo_root
  repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  "$repo_root/scripts/build-shell-extension.sh" --zip --out "$work/build" "$form" >"$work/build.log" 2>&1 ||
    { gnome_shell_error="the $form build: $(tail -3 "$work/build.log")"; return 1; }
  extension_zip=$(ls "$work"/build/*.shell-extension.zip)
  gnome-extensions install --force "$extension_zip" >"$work/install.log" 2>&1 &&
    [ -f "$XDG_DATA_HOME/gnome-shell/extensions/relavoi@relavoi.com/metadata.json" ] ||
    { gnome_shell_error="gnome-extensions install: $(cat "$work/install.log")"; return 1; }
}

# `gnome-shell --x11 --unsafe-mode` (unsafe mode lets org.gnome.Shell.Eval read the panel;
# sets shell_pid), waited for, then the desktop as after a login: no start-up overview, no
# "privileged user" notification.
start_gnome_shell() {
  gsettings set org.gnome.shell welcome-dialog-last-shown-version '999'
  gnome-shell --x11 --replace --sm-disable --unsafe-mode >"$work/gnome-shell.log" 2>&1 &
  shell_pid=$!
  pids+=("$shell_pid")
  wait_for 60 sh -c "/usr/bin/python3 \"$gnome_shell_eval\" 'Main.layoutManager._startingUp' | grep -qx false" ||
    { gnome_shell_error=$(tail -5 "$work/gnome-shell.log"); return 1; }
  /usr/bin/python3 "$gnome_shell_eval" \
    "Main.overview.hide(); Main.messageTray.getSources().forEach(s => s.destroy()); true" >/dev/null
  wait_for 20 sh -c "/usr/bin/python3 \"$gnome_shell_eval\" 'Main.overview.visible || Main.overview.animationInProgress' | grep -qx false"
}

# Stops everything in `pids`, newest first, and waits for each (the callers' EXIT trap).
stop_started() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do wait "${pids[i]}" 2>/dev/null; done
}
