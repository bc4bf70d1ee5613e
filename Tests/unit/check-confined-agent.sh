#!/usr/bin/env bash
# The agent under desktop/relavoi-agent.service, confined as installed, in a
# REAL systemd user manager (`systemd --user`), on a host whose PID 1 need not
# be systemd:
#   Tests/unit/check-confined-agent.sh            # as root; .build/debug's programs
#   BIN_DIR=/usr/bin Tests/unit/check-confined-agent.sh
#   RELAVOI_UNIT_ROOT=/var/tmp/desktops-trixie Tests/unit/check-confined-agent.sh
# The last runs that root's systemd (Debian 13: 257) and dbus-daemon, chrooted
# (the repository and /opt/swift bound in at the same paths); the helpers on
# the bus (keyring, stand-ins, sandbox) and the agent's libraries' ABI are the
# host's and the root's respectively.
# The manager runs as an ordinary user (RELAVOI_UNIT_UID, default the first
# uid >= 1000 in passwd) in cgroups delegated to it, in a mount namespace of
# its own where /run/systemd/system exists (systemd refuses to run a user
# instance otherwise). Its own dbus.service is the session bus. On it, outside
# the unit: gnome-keyring (the API secret, stored by `relavoi-agent login`),
# dbusmock's notification daemon, a desktop-portal stand-in (dbusmock with
# OpenURI) and relavoi-sandbox on 127.0.0.1. Checks: the unit is confined
# (NoNewPrivs, seccomp), a call's banner is shown, the keyring was read, a
# network change is followed (a dummy link; skipped without CAP_NET_ADMIN), a
# click reaches the portal with the page's URI, the window is D-Bus activated
# outside the unit, an agent.conf change is taken in place, and a SIGSEGV is
# restarted (Restart=on-failure) and the call shown again.
# Skips (exit 0) where a user manager cannot run: not root, no systemd, no
# delegable cgroup hierarchy. KEEP=1 keeps the manager and its folder.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$repo/Tests/lib/checks.sh"
bin=${BIN_DIR:-$repo/.build/debug}
checks_deadline=$((SECONDS + 300))

skip_all() {
  skip "confined agent in a systemd user manager" "$1"
  summary --skipped
  exit 0
}
[ "$(id -u)" -eq 0 ] || skip_all "needs root to delegate cgroups and start a manager for a test user"
# Not under /tmp or /var/tmp: the unit's PrivateTmp= would hide the home, the bus and the
# programs there (a checkout under /tmp cannot run this unit as written).
case "$repo/" in
  /tmp/* | /var/tmp/*) skip_all "this checkout is under /tmp or /var/tmp, which the unit's PrivateTmp= hides" ;;
esac
root=${RELAVOI_UNIT_ROOT:-/}
root=${root%/}
systemd_bin=/lib/systemd/systemd
[ -x "$root$systemd_bin" ] || skip_all "no $root$systemd_bin (Debian package systemd)"
[ -x "$root/usr/bin/dbus-daemon" ] || skip_all "no dbus-daemon in ${root:-/}"
for tool in unshare nsenter setpriv gnome-keyring-daemon busctl; do
  command -v "$tool" >/dev/null || skip_all "no $tool"
done
/usr/bin/python3 -c "import dbusmock" 2>/dev/null || skip_all "no python3-dbusmock"
for program in relavoi-agent relavoi-sandbox; do
  [ -x "$bin/$program" ] || skip_all "no $bin/$program (swift build first)"
done
uid=${RELAVOI_UNIT_UID:-$(awk -F: '$3 >= 1000 && $3 < 65534 { print $3; exit }' /etc/passwd)}
[ -n "$uid" ] || skip_all "no ordinary user (uid >= 1000) to run the manager as"
setpriv --reuid="$uid" --regid="$uid" --clear-groups test -x "$bin/relavoi-agent" ||
  skip_all "uid $uid cannot run $bin/relavoi-agent (a folder on the way is closed to it)"

# The cgroup hierarchies the manager will own: cgroup v2, or v1's name=systemd
# plus the unified one (hybrid).
cgroup_dirs=()
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  cgroup_dirs=(/sys/fs/cgroup)
elif [ -d /sys/fs/cgroup/systemd ]; then
  cgroup_dirs=(/sys/fs/cgroup/systemd)
  [ -d /sys/fs/cgroup/unified ] && cgroup_dirs+=(/sys/fs/cgroup/unified)
fi
[ ${#cgroup_dirs[@]} -gt 0 ] || skip_all "no cgroup hierarchy"
group=relavoi-unit-$$
for dir in "${cgroup_dirs[@]}"; do
  mkdir "$dir/$group" 2>/dev/null && chown -R "$uid:$uid" "$dir/$group" || skip_all "cannot delegate a cgroup in $dir"
done

mkdir -p "$repo/.build"
work=$(mktemp -d "$repo/.build/relavoi-unit.XXXXXX")
chmod 755 "$work"
home=$work/home run=$work/run
mkdir -p "$home/.config/systemd/user" "$home/.local/share/dbus-1/services" "$run"
chmod 700 "$run"
manager_pid=
sandbox_pid=
helper_pids=()
cleanup() {
  [ -z "$sandbox_pid" ] || kill "$sandbox_pid" 2>/dev/null
  [ ${#helper_pids[@]} -eq 0 ] || kill "${helper_pids[@]}" 2>/dev/null
  ip route del 198.51.100.0/24 dev lo 2>/dev/null
  if [ -n "${KEEP:-}" ]; then
    echo "kept: $work (manager $manager_pid)"
    return
  fi
  [ -z "$manager_pid" ] || kill -TERM "$manager_pid" 2>/dev/null
  # Whatever the manager left (its services) goes with its cgroups.
  for dir in "${cgroup_dirs[@]}"; do
    for _ in $(seq 50); do
      [ -n "$(find "$dir/$group" -name cgroup.procs -exec cat {} + 2>/dev/null)" ] || break
      find "$dir/$group" -name cgroup.procs -exec cat {} + 2>/dev/null | xargs -r kill -KILL 2>/dev/null
      sleep 0.1
    done
    find "$dir/$group" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
touch "$work/manager.log"
if [ ! -e "$root/usr/lib/systemd/user/dbus.socket" ]; then
  # No dbus-user-session there: its two units, as that package has them.
  mkdir -p "$home/.config/systemd/user/sockets.target.wants"
  printf '[Socket]\nListenStream=%%t/bus\nExecStartPost=-/bin/systemctl --user set-environment DBUS_SESSION_BUS_ADDRESS=unix:path=%%t/bus\n[Install]\nWantedBy=sockets.target\n' \
    >"$home/.config/systemd/user/dbus.socket"
  printf '[Unit]\nRequires=dbus.socket\n[Service]\nExecStart=/usr/bin/dbus-daemon --session --address=systemd: --nofork --nopidfile --systemd-activation --syslog-only\nExecReload=/usr/bin/dbus-send --print-reply --session --type=method_call --dest=org.freedesktop.DBus / org.freedesktop.DBus.ReloadConfig\n' \
    >"$home/.config/systemd/user/dbus.service"
  ln -s ../dbus.socket "$home/.config/systemd/user/sockets.target.wants/dbus.socket"
fi
chown -R "$uid:$uid" "$home" "$run" "$work/manager.log"

# (dbus-daemon takes the home from passwd: XDG_DATA_HOME names the test's.)
user_env=(XDG_RUNTIME_DIR="$run" HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config" USER=relavoi-unit LOGNAME=relavoi-unit
  PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8)
# The manager: its own mount namespace with /run/systemd/system (sd_booted),
# /run/systemd/unit-root (252) and mount-rootfs (257), where PID 1 would have
# made them (a unit's namespace is built there), and its log (a user manager without journald writes to /dev/console),
# its own cgroups, the test user's ids and no capabilities.
(
  for dir in "${cgroup_dirs[@]}"; do echo "$BASHPID" >"$dir/$group/cgroup.procs"; done
  exec unshare --mount --propagation private sh -c '
    log=$1 root=$2 repo=$3 uid=$4 run=$5
    shift 5
    if [ -n "$root" ]; then
      mount --bind "$root" "$root" || exit 1
      # The test user as the root knows it (dbus-daemon refuses a uid without one).
      for f in passwd group; do
        { cat "$root/etc/$f"; grep "^[^:]*:[^:]*:$(id -u "$uid" 2>/dev/null || echo "$uid"):" "/etc/$f"; } >"$log.$f"
        mount --bind "$log.$f" "$root/etc/$f" || exit 1
      done
      for d in proc sys dev; do mount --rbind "/$d" "$root/$d" || exit 1; done
      mkdir -p "$root$repo" "$root/opt/swift" && mount --bind "$repo" "$root$repo" &&
        mount --bind /opt/swift "$root/opt/swift" || exit 1
    fi
    mount -t tmpfs -o mode=755 tmpfs "$root/run/systemd" && mkdir "$root/run/systemd/system" || exit 1
    # systemd 257 also looks for /run/user/UID itself: the same folder.
    mount -t tmpfs -o mode=755 tmpfs "$root/run/user" && mkdir "$root/run/user/$uid" &&
      mount --bind "$run" "$root/run/user/$uid" || exit 1
    mount --bind "$log" "$root/dev/console" || exit 1
    mkdir -m 0700 "$root/run/systemd/unit-root" && mkdir -m 0555 "$root/run/systemd/mount-rootfs" || exit 1
    # pivot_root, not chroot: the kernel refuses a user namespace (PrivateUsers=)
    # to a chrooted process.
    if [ -n "$root" ]; then cd "$root" && pivot_root . . && umount -l . && cd / || exit 1; fi
    exec "$@"' sh "$work/manager.log" "$root" "$repo" "$uid" "$run" setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=-all \
    --bounding-set=-all env -i "${user_env[@]}" SYSTEMD_LOG_TARGET=console "$systemd_bin" --user
) >>"$work/manager.log" 2>&1 &
manager_pid=$!
disown "$manager_pid"
# in_root COMMAND...: in the manager's mount namespace and root, as the test
# user (systemctl and systemd-analyze of the manager's own version).
in_root() {
  nsenter -t "$manager_pid" -m -r setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i "${user_env[@]}" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$run/bus" "$@"
}
# as_user COMMAND...: on the host, as the test user, on the manager's bus (the
# bus's socket is at the same path here).
as_user() {
  setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i "${user_env[@]}" \
    DBUS_SESSION_BUS_ADDRESS="unix:path=$run/bus" "$@"
}
# spawn_user COMMAND... &: as_user in the background, $! its pid.
spawn_user() { exec setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i "${user_env[@]}" \
  DBUS_SESSION_BUS_ADDRESS="unix:path=$run/bus" "$@"; }
systemctl_user() { in_root systemctl --user --no-pager "$@"; }
wait_for 30 test -S "$run/bus" && wait_for 30 systemctl_user is-active dbus.socket ||
  skip_all "the user manager did not start: $(head -c 400 "$work/manager.log")"
ok "a systemd user manager runs ($(chroot "${root:-/}" "$systemd_bin" --version | head -1) in ${root:-/})"

# relavoi-sandbox, outside the manager: one call that stays live.
cat >"$work/call.scenario" <<'EOF'
{"at":0,"session":{"id":"ses_unit","proxyNumber":"+2348000000001","state":"ACTIVE","metadata":{"label":"Rider","orderId":"A7"}}}
{"at":0,"waitForClient":true}
{"at":1,"event":"call.incoming","payload":{"sessionId":"ses_unit","proxyNumber":"+2348000000001"}}
{"at":2,"event":"call.answered","payload":{"sessionId":"ses_unit","proxyNumber":"+2348000000001"}}
EOF
"$bin/relavoi-sandbox" --scenario "$work/call.scenario" --token-rate-limit 0 >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
wait_for 30 grep -q '^READY ' "$work/sandbox.log" || fail "relavoi-sandbox started" "$(head -5 "$work/sandbox.log")"
base_url=$(sed -n 's/^READY //p' "$work/sandbox.log" | head -1)

# On the manager's bus, outside the unit: the keyring, the notification
# server, the portal stand-in.
printf relavoi-unit-password | (spawn_user gnome-keyring-daemon --unlock --components=secrets --foreground) \
  >"$work/keyring.log" 2>&1 &
helper_pids+=($!)
(spawn_user /usr/bin/python3 -m dbusmock --template notification_daemon \
  --parameters '{"capabilities": "body actions"}') >"$work/notify.log" 2>&1 &
helper_pids+=($!)
(spawn_user /usr/bin/python3 -m dbusmock org.freedesktop.portal.Desktop /org/freedesktop/portal/desktop \
  org.freedesktop.portal.OpenURI) >"$work/portal.log" 2>&1 &
portal_pid=$!
helper_pids+=($!)
# A panel's StatusNotifierWatcher, so the agent exports its tray item and menu.
(spawn_user /usr/bin/python3 -m dbusmock org.kde.StatusNotifierWatcher /StatusNotifierWatcher \
  org.kde.StatusNotifierWatcher) >"$work/watcher.log" 2>&1 &
helper_pids+=($!)
has_owner() { as_user busctl --user status "$1" >/dev/null 2>&1; }
wait_for 30 has_owner org.freedesktop.secrets && wait_for 30 has_owner org.freedesktop.Notifications &&
  wait_for 30 has_owner org.freedesktop.portal.Desktop && wait_for 30 has_owner org.kde.StatusNotifierWatcher ||
  fail "keyring, notification server, portal and watcher stand-ins on the bus"
mock() { # mock NAME PATH METHOD ARGS...: a call to a dbusmock stand-in's control interface
  local name=$1 path=$2 method=$3
  shift 3
  as_user gdbus call --session --dest "$name" --object-path "$path" --method "org.freedesktop.DBus.Mock.$method" "$@" \
    >/dev/null
}
mock org.kde.StatusNotifierWatcher /StatusNotifierWatcher AddMethod org.kde.StatusNotifierWatcher \
  RegisterStatusNotifierItem s '' '' &&
  mock org.kde.StatusNotifierWatcher /StatusNotifierWatcher AddProperty org.kde.StatusNotifierWatcher \
    IsStatusNotifierHostRegistered '<true>' &&
  mock org.kde.StatusNotifierWatcher /StatusNotifierWatcher AddProperty org.kde.StatusNotifierWatcher \
    ProtocolVersion '<int32 0>' || fail "watcher stand-in's methods"
# The portal stand-in notes the URI and the handler it would start: one that
# writes down the confinement it runs under (it is the portal's child).
as_user gdbus call --session --dest org.freedesktop.portal.Desktop --object-path /org/freedesktop/portal/desktop \
  --method org.freedesktop.DBus.Mock.AddMethod org.freedesktop.portal.OpenURI OpenURI 'ssa{sv}' o \
  "import subprocess; subprocess.Popen(['/bin/sh', '-c', 'grep -E \"^(NoNewPrivs|Seccomp):\" /proc/self/status > $run/browser-status']); ret = dbus.ObjectPath('/org/freedesktop/portal/desktop/request/1_1/relavoi')" \
  >/dev/null || fail "portal stand-in's OpenURI"

# Signed in as a person would: the secret goes to the keyring, the rest to agent.conf.
key=rk_test_5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d5a4d
secret=rs_0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de
if printf '%s\n' "$secret" | as_user "$bin/relavoi-agent" login --api-key "$key" --base-url "$base_url" \
  --user-phone +2348000000009 >"$work/login.log" 2>&1; then
  ok "relavoi-agent login stored the secret in gnome-keyring"
else
  fail "relavoi-agent login" "$(tail -3 "$work/login.log")"
fi
printf 'open-url = https://ops.example.com/calls/{sessionId}\n' >>"$home/.config/relavoi/agent.conf"
grep -q "$secret" "$home/.config/relavoi/agent.conf" && fail "the secret stays out of agent.conf"

# The unit as installed (install.sh's @bindir@), and the window's D-Bus
# service file: a stand-in that writes down its confinement and owns the name.
sed "s|@bindir@|$bin|g" "$repo/desktop/relavoi-agent.service" >"$home/.config/systemd/user/relavoi-agent.service"
sed "s|@bindir@|$bin|g" "$repo/desktop/com.relavoi.Agent.service" >"$home/.local/share/dbus-1/services/com.relavoi.Agent.service"
cat >"$home/.local/share/dbus-1/services/com.relavoi.Agent.Settings.service" <<EOF
[D-BUS Service]
Name=com.relavoi.Agent.Settings
Exec=/bin/sh -c 'grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status > $run/window-status; exec /usr/bin/python3 -m dbusmock com.relavoi.Agent.Settings /com/relavoi/Agent/Settings org.freedesktop.Application'
EOF
chown -R "$uid:$uid" "$home"
systemctl_user daemon-reload
as_user busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig >/dev/null
# (verify also loads the machine's other user units: only this one's lines count)
verify=$(in_root systemd-analyze --user --man=no verify "$home/.config/systemd/user/relavoi-agent.service" 2>&1 |
  grep relavoi-agent)
if [ -z "$verify" ]; then ok "systemd-analyze verify of the installed unit"; else
  fail "systemd-analyze verify of the installed unit" "$verify"
fi

journal() { systemctl_user status relavoi-agent.service -n 200 2>&1; }
agent_log() { cat "$home/agent.log" 2>/dev/null; }
# The agent's own output, also where journald does not run: the manager's log.
mkdir -p "$home/.config/systemd/user/relavoi-agent.service.d"
printf '[Service]\nStandardOutput=append:%s\nStandardError=inherit\nEnvironment=G_MESSAGES_DEBUG=relavoi\n' \
  "$home/agent.log" >"$home/.config/systemd/user/relavoi-agent.service.d/log.conf"
chown -R "$uid:$uid" "$home"
systemctl_user daemon-reload
if systemctl_user start relavoi-agent.service; then ok "the unit started"; else
  fail "the unit started" "$(journal | tail -20; tail -20 "$work/manager.log")"
fi
main_pid() { systemctl_user show -P MainPID relavoi-agent.service; }
pid=$(main_pid)
if [ "${pid:-0}" = 0 ]; then
  fail "the unit has a main process" "$(journal | tail -20; tail -c 1500 "$work/manager.log")"
  summary --skipped
  exit 1
fi
status=$(grep -E '^(NoNewPrivs|Seccomp):' "/proc/$pid/status" 2>/dev/null | tr -s '\t\n' '  ')
case "$status" in
  *"NoNewPrivs: 1"*"Seccomp: 2"*) ok "the agent runs confined ($status)" ;;
  *) fail "the agent runs confined" "pid $pid: $status" ;;
esac

mode=$(stat -c %a "$home/.config/relavoi")
[ "$mode" = 700 ] && ok "agent.conf's folder is 0700 (ConfigurationDirectoryMode)" || fail "agent.conf's folder is 0700" "$mode"

# banner_count TITLE: Notify calls so far with that summary (dbusmock's log).
banner_count() { grep -c "^[0-9.]* Notify \"Relavoi\" [0-9]* \"[^\"]*\" \"$1\"" "$work/notify.log"; }
shown_as() { [ "$(banner_count "$1")" -gt "$2" ]; }
shown() { shown_as Rider "$1"; }
if wait_for 60 shown 0; then ok "the call's banner was shown"; else
  fail "the call's banner was shown" "$(agent_log | tail -20)"
fi
grep -q "$secret" "$home/agent.log" "$work/manager.log" && fail "the secret stays out of the logs"
if grep -q "API secret from keyring" "$home/agent.log" && grep -q "stream connected" "$home/agent.log"; then
  ok "the secret came from the keyring (no file, no environment) and the stream connected"
else
  fail "the secret came from the keyring" "$(agent_log | grep -iv debug | head -5)"
fi

# A network change: GNetworkMonitor's netlink watch sees a new route (to
# TEST-NET-2, on lo: nothing is sent anywhere), then its removal.
if ip route add 198.51.100.0/24 dev lo 2>/dev/null; then
  if wait_for 60 grep -q "the network changed: reconnecting now" "$home/agent.log"; then
    ok "a network change was followed (netlink)"
  else
    fail "a network change was followed" "$(agent_log | tail -10)"
  fi
  ip route del 198.51.100.0/24 dev lo
else
  skip "a network change was followed" "cannot add a route (no CAP_NET_ADMIN)"
fi

# A click: the server's ActionInvoked on the banner goes to the portal (the
# banner is one of the first notifications: a click on another opens nothing).
# dbusmock numbers its notifications from 1; the call's banner was the first.
mock org.freedesktop.Notifications /org/freedesktop/Notifications EmitSignal org.freedesktop.Notifications \
  ActionInvoked us "[<uint32 1>, <'default'>]" || fail "the click (ActionInvoked)"
opened() { grep -q "OpenURI \"\" \"https://ops.example.com/calls/ses_unit\"" "$work/portal.log"; }
if wait_for 30 opened; then ok "a click reached the portal with the page's URI"; else
  fail "a click reached the portal" "$(agent_log | grep -i 'open' | tail -5)"
fi
if wait_for 30 test -s "$run/browser-status" && grep -q 'NoNewPrivs:.0' "$run/browser-status" &&
  grep -q 'Seccomp:.0' "$run/browser-status"; then
  ok "the browser the portal starts is not confined"
else
  fail "the browser the portal starts is not confined" "$(cat "$run/browser-status" 2>/dev/null)"
fi

# The window: the tray's Settings… row (id 3) asks the bus to activate it.
agent_name=$(as_user busctl --user status com.relavoi.Agent 2>/dev/null | sed -n 's/^UniqueName=//p')
as_user gdbus call --session --dest "${agent_name:-com.relavoi.Agent}" --object-path /MenuBar \
  --method com.canonical.dbusmenu.Event 3 clicked '<int32 0>' 0 >/dev/null 2>&1
if wait_for 30 test -s "$run/window-status" && grep -q 'NoNewPrivs:.0' "$run/window-status" &&
  grep -q 'Seccomp:.0' "$run/window-status"; then
  ok "the window is started by the bus, outside the unit"
else
  fail "the window is started by the bus, outside the unit" "$(cat "$run/window-status" 2>/dev/null; agent_log | grep -i window | tail -3)"
fi

# No portal: the confined agent has the user's service manager run xdg-open
# (a transient unit); xdg-open (no desktop named) starts the manager's $BROWSER.
if [ -x "$root/usr/bin/xdg-open" ]; then
  printf '#!/bin/sh\n{ echo "$1"; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status; } >%s/browser2-status\n' "$run" \
    >"$run/browser"
  chmod 755 "$run/browser"
  chown "$uid:$uid" "$run/browser"
  systemctl_user set-environment BROWSER="$run/browser"
  kill "$portal_pid"
  no_portal() { ! has_owner org.freedesktop.portal.Desktop; }
  wait_for 10 no_portal || fail "the portal stand-in stopped"
  mock org.freedesktop.Notifications /org/freedesktop/Notifications EmitSignal org.freedesktop.Notifications \
    ActionInvoked us "[<uint32 1>, <'default'>]" || fail "the second click (ActionInvoked)"
  if wait_for 30 grep -q "NoNewPrivs:.0" "$run/browser2-status" && grep -q "Seccomp:.0" "$run/browser2-status" &&
    grep -q "https://ops.example.com/calls/ses_unit" "$run/browser2-status"; then
    ok "without a portal: xdg-open as a transient unit, the browser not confined"
  else
    fail "without a portal: xdg-open as a transient unit" "$(cat "$run/browser2-status" 2>/dev/null; agent_log | grep -i open | tail -3)"
  fi
else
  skip "without a portal: xdg-open as a transient unit" "no xdg-open in ${root:-/}"
fi

# The window's settings taken in place: agent.conf changed as the window
# writes it. lock-screen applies at once to the Calls property the lock-screen
# card reads: off hides the live call there, with no restart.
calls_property() {
  as_user gdbus call --session --dest com.relavoi.Agent --object-path /com/relavoi/Agent \
    --method org.freedesktop.DBus.Properties.Get com.relavoi.Agent1 Calls 2>&1
}
lock_card() { calls_property | grep -q "'lock-screen': <$1>"; }
wait_for 10 lock_card true || fail "the live call is on the lock-screen card (lock-screen = label)" "$(calls_property | head -c 300)"
printf 'lock-screen = off\n' >>"$home/.config/relavoi/agent.conf"
if wait_for 30 lock_card false && grep -q "settings changed: taken in place" "$home/agent.log"; then
  ok "an agent.conf change was taken in place (lock-screen = off: the card hides the call)"
else
  fail "an agent.conf change was taken in place" "$(calls_property | head -c 300; agent_log | tail -5)"
fi

# A crash: SIGSEGV, restarted by Restart=on-failure, the live call shown again.
pid=$(main_pid)
count=$(banner_count Rider)
[ "${pid:-0}" != 0 ] && kill -SEGV "$pid"
restarted() { local now; now=$(main_pid); [ -n "$now" ] && [ "$now" != 0 ] && [ "$now" != "$pid" ]; }
if wait_for 60 restarted; then
  ok "SIGSEGV restarted by Restart=on-failure (NRestarts=$(systemctl_user show -P NRestarts relavoi-agent.service))"
else
  fail "SIGSEGV restarted" "$(journal | tail -10)"
fi
if wait_for 60 shown "$count"; then ok "the restarted agent shows the live call again"; else
  fail "the restarted agent shows the live call again" "$(agent_log | tail -10)"
fi

if [ -n "${KEEP:-}" ]; then cp "$home/agent.log" "${KEEP_LOG:-/dev/null}" 2>/dev/null; fi
summary --skipped
