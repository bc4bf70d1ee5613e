#!/usr/bin/env bash
# Layout test for scripts/install.sh. Builds nothing: any executable stands in
# for the agent.
#
#   Tests/install/check-install.sh                      # AGENT_BIN=/bin/true
#   AGENT_BIN=.build/release/relavoi-agent Tests/install/check-install.sh
#
# 1. Installs into a temporary DESTDIR with the default PREFIX and checks
#    every file, its mode, the @bindir@ substitution, desktop-file-validate,
#    the man page and the manifest; reinstalls; uninstalls and checks that no
#    file is left and that a file the install did not make is kept.
# 2. Installs for real (no DESTDIR) into a temporary PREFIX, so the paths in
#    the files are real: checks the icon cache, `systemd-analyze verify`,
#    that systemd's XDG autostart generator skips the entry, and that a
#    private D-Bus daemon activates the agent through the installed service
#    file; uninstalls and checks that the PREFIX is gone.
# Checks whose tool is missing are skipped. Ends with "N passed, N failed,
# N skipped"; exits 1 when a check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
install_sh=$repo/scripts/install.sh
agent_bin=${AGENT_BIN:-/bin/true}
case "$agent_bin" in /*) ;; *) agent_bin=$(pwd)/$agent_bin ;; esac
# The demo's sandbox program: any executable stands in for it too.
export SANDBOX_BIN=${SANDBOX_BIN:-/bin/true}
# The window (relavoi-window): any executable stands in for it as well.
export WINDOW_BIN=${WINDOW_BIN:-/bin/true}

# The test sets every install setting itself.
unset PREFIX DESTDIR BINDIR DATADIR MANDIR XDG_AUTOSTART_DIR APPLICATIONS_DIR \
  SYSTEMD_USER_UNIT_DIR DBUS_SERVICES_DIR SYSTEMD_ENABLE AGENT_BIN SHELL_EXTENSION SHELL_EXTENSIONS_DIR

work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$repo/Tests/lib/checks.sh"
# dbus-daemon's "fd limit" warning is no reason.
check_output() { grep -v 'fd limit' | head -5; }
has() { command -v "$1" >/dev/null 2>&1; }
mode_of() { stat -c '%a' "$1"; }

# The app id, the icon names the banners use, and where each file goes.
icons=(
  scalable/apps/com.relavoi.Agent.svg
  scalable/status/com.relavoi.Agent-verified.svg
  scalable/status/com.relavoi.Agent-unverified.svg
  scalable/status/com.relavoi.Agent-checking.svg
  scalable/status/com.relavoi.Agent-unavailable.svg
  symbolic/apps/com.relavoi.Agent-symbolic.svg
  scalable/status/com.relavoi.Agent-verified-symbolic.svg
  scalable/status/com.relavoi.Agent-unverified-symbolic.svg
  scalable/status/com.relavoi.Agent-checking-symbolic.svg
  scalable/status/com.relavoi.Agent-unavailable-symbolic.svg
  scalable/status/com.relavoi.Agent-ringing-symbolic.svg
)
# The GNOME Shell extension's files, under share/gnome-shell/extensions/relavoi@relavoi.com/.
extension_files=(metadata.json extension.js model.js indicator.js agentClient.js iconFinder.js layout.js lockScreen.js
  callClock.js windowLauncher.js prefs.js stylesheet.css
  icons/com.relavoi.Agent-checking-symbolic.svg icons/com.relavoi.Agent-verified-symbolic.svg
  icons/com.relavoi.Agent-unverified-symbolic.svg icons/com.relavoi.Agent-unavailable-symbolic.svg
  icons/com.relavoi.Agent-ringing-symbolic.svg)
# Its own catalogs (gettext domain relavoi-shell), one a language of desktop/gnome-shell/po/.
for i in "$repo"/desktop/gnome-shell/po/*.po; do i=${i##*/}; extension_files+=("locale/${i%.po}/LC_MESSAGES/relavoi-shell.mo"); done
# The extension build scripts/install.sh should pick here: esm from GNOME 45 on, else legacy.
shell_major=$(gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9][0-9]*\).*/\1/p')
if [ -n "$shell_major" ] && [ "$shell_major" -ge 45 ]; then
  shell_form=esm shell_versions='["45", "46", "47", "48", "49", "50", "51"]'
else
  shell_form=legacy shell_versions='["43", "44"]'
fi
# expected_files PREFIX AUTOSTART: "MODE PATH" lines (l for a symlink).
expected_files() {
  local p=$1 a=$2 i
  echo "755 $p/bin/relavoi-agent"
  echo "755 $p/libexec/relavoi-agent/relavoi-sandbox"
  echo "644 $a/com.relavoi.Agent.desktop"
  echo "644 $p/share/applications/com.relavoi.Agent.desktop"
  echo "644 $p/lib/systemd/user/relavoi-agent.service"
  echo "644 $p/share/dbus-1/services/com.relavoi.Agent.service"
  echo "644 $p/share/man/man1/relavoi-agent.1"
  echo "755 $p/bin/relavoi-window"
  echo "644 $p/share/applications/com.relavoi.Agent.Settings.desktop"
  echo "644 $p/share/dbus-1/services/com.relavoi.Agent.Settings.service"
  echo "644 $p/share/metainfo/com.relavoi.Agent.Settings.metainfo.xml"
  echo "644 $p/share/relavoi-agent/window/window.ui"
  echo "644 $p/share/man/man1/relavoi-window.1"
  for i in "$repo"/po/*.po; do i=${i##*/}; echo "644 $p/share/locale/${i%.po}/LC_MESSAGES/relavoi-agent.mo"; done
  for i in "${icons[@]}"; do echo "644 $p/share/icons/hicolor/$i"; done
  for i in "${extension_files[@]}"; do echo "644 $p/share/gnome-shell/extensions/relavoi@relavoi.com/$i"; done
  echo "644 $p/share/relavoi-agent/install-manifest.txt"
}

check_files() { # ROOT PREFIX AUTOSTART
  local root=$1 mode path bad=""
  while read -r mode path; do
    if [ ! -f "$root$path" ] || [ -L "$root$path" ]; then
      bad+=" missing:$path"
    elif [ "$(mode_of "$root$path")" != "$mode" ]; then
      bad+=" mode:$path=$(mode_of "$root$path")(want $mode)"
    fi
  done < <(expected_files "$2" "$3")
  [ -z "$bad" ] || { echo "$bad"; return 1; }
}

check_no_placeholder() { # ROOT
  ! grep -rl --exclude=relavoi-agent '@bindir@' "$1"
}

check_paths() { # ROOT BINDIR PREFIX AUTOSTART
  local root=$1 bin=$2/relavoi-agent p=$3 a=$4
  grep -qx "ExecStart=$bin" "$root$p/lib/systemd/user/relavoi-agent.service" || { echo "unit ExecStart"; return 1; }
  grep -qx "Environment=G_SLICE=always-malloc" "$root$p/lib/systemd/user/relavoi-agent.service" || { echo "unit G_SLICE"; return 1; }
  grep -qx "Exec=/usr/bin/env G_SLICE=always-malloc $bin" "$root$p/share/dbus-1/services/com.relavoi.Agent.service" || { echo "D-Bus Exec"; return 1; }
  grep -qx "SystemdService=relavoi-agent.service" "$root$p/share/dbus-1/services/com.relavoi.Agent.service" || { echo "SystemdService"; return 1; }
  grep -qx "Exec=env G_SLICE=always-malloc $bin" "$root$a/com.relavoi.Agent.desktop" || { echo "autostart Exec"; return 1; }
  grep -qx "TryExec=$bin" "$root$a/com.relavoi.Agent.desktop" || { echo "autostart TryExec"; return 1; }
  local window=$2/relavoi-window
  grep -qx "Exec=$window --gapplication-service" "$root$p/share/dbus-1/services/com.relavoi.Agent.Settings.service" ||
    { echo "the window's D-Bus Exec"; return 1; }
  grep -qx "Name=com.relavoi.Agent.Settings" "$root$p/share/dbus-1/services/com.relavoi.Agent.Settings.service" ||
    { echo "the window's D-Bus Name"; return 1; }
  grep -qx "Exec=$window" "$root$p/share/applications/com.relavoi.Agent.Settings.desktop" || { echo "the window's Exec"; return 1; }
  grep -qx "TryExec=$window" "$root$p/share/applications/com.relavoi.Agent.Settings.desktop" || { echo "the window's TryExec"; return 1; }
  grep -qx "DBusActivatable=true" "$root$p/share/applications/com.relavoi.Agent.Settings.desktop" || { echo "DBusActivatable"; return 1; }
}

check_window_entry() { # FILE: the app grid's entry, translated by msgfmt --desktop from po/
  local f=$1 key
  for key in Type=Application Name=Relavoi Icon=com.relavoi.Agent "Keywords=Relavoi;calls;phone;banner;notification;sign in;settings;" \
    "Comment[fr]=Connectez-vous à Relavoi, voyez vos appels et choisissez comment ils s'affichent" \
    "Comment[pt]=Entre no Relavoi, veja suas chamadas e escolha como elas aparecem"; do
    grep -qxF "$key" "$f" || { echo "no $key"; return 1; }
  done
}

check_desktop_validate() { # FILE...
  local f rc=0
  for f in "$@"; do desktop-file-validate "$f" || rc=1; done
  return $rc
}

check_entry_keys() { # FILE: the keys that keep exactly one agent per session
  local f=$1 key
  for key in Type=Application Name=Relavoi Icon=com.relavoi.Agent NoDisplay=true \
    X-GNOME-UsesNotifications=true X-GNOME-Autostart-enabled=true X-systemd-skip=true \
    X-GNOME-HiddenUnderSystemd=true; do
    grep -qx "$key" "$f" || { echo "no $key"; return 1; }
  done
  if grep -q '^X-GNOME-Autostart-Phase' "$f"; then echo "has X-GNOME-Autostart-Phase"; return 1; fi
  # Translated by msgfmt --desktop from po/.
  for key in "Comment[fr]=Affiche des bannières d'appel en direct pour les numéros masqués Relavoi" \
    "GenericName[pt]=Banners de chamada"; do
    grep -qxF "$key" "$f" || { echo "no $key"; return 1; }
  done
}

check_svgs() { # ICONDIR
  local i
  for i in "${icons[@]}"; do
    rsvg-convert -w 16 -h 16 "$1/$i" -o "$work/icon.png" || { echo "$i"; return 1; }
  done
}

check_manifest_complete() { # ROOT MANIFEST [IGNORED-FILE]: files on disk == f/l entries
  local root=$1 manifest=$2 ignored=${3:-}
  diff <(find "$root" \( -type f -o -type l \) -printf '/%P\n' | grep -vxF -e "${ignored:-/-}" | LC_ALL=C sort) \
    <(sed -n 's/^[fl] //p' "$manifest" | LC_ALL=C sort)
}

# ------------------------------------------------------ 1. staged install
echo "# 1. DESTDIR install, PREFIX=/usr/local, AGENT_BIN=$agent_bin"
stage=$work/stage
foreign=/etc/xdg/autostart/other.desktop
mkdir -p "$stage/etc/xdg/autostart"
printf '[Desktop Entry]\nType=Application\nName=Other\nExec=true\n' >"$stage$foreign"

check "install into DESTDIR exits 0" env AGENT_BIN="$agent_bin" DESTDIR="$stage" "$install_sh" install
check "every file is there with mode 0755 (agent) or 0644" check_files "$stage" /usr/local /etc/xdg/autostart
link=$stage/usr/local/lib/systemd/user/graphical-session.target.wants/relavoi-agent.service
check "unit enabled in graphical-session.target.wants/" \
  test "$(readlink "$link" 2>/dev/null)" = ../relavoi-agent.service -a -f "$link"
check "no @bindir@ left in any installed file" check_no_placeholder "$stage"
check "paths point at /usr/local/bin/relavoi-agent" check_paths "$stage" /usr/local/bin /usr/local /etc/xdg/autostart
if has desktop-file-validate; then
  check "desktop-file-validate accepts the installed entries" check_desktop_validate \
    "$stage/etc/xdg/autostart/com.relavoi.Agent.desktop" "$stage/usr/local/share/applications/com.relavoi.Agent.desktop" \
    "$stage/usr/local/share/applications/com.relavoi.Agent.Settings.desktop"
else
  skip "desktop-file-validate" "not installed"
fi
check "autostart entry has the one-agent keys" check_entry_keys "$stage/etc/xdg/autostart/com.relavoi.Agent.desktop"
check "the window's entry: app grid keys, translated" check_window_entry "$stage/usr/local/share/applications/com.relavoi.Agent.Settings.desktop"
if has appstreamcli; then
  check "appstreamcli validates the window's metainfo" \
    appstreamcli validate --no-net --pedantic "$stage/usr/local/share/metainfo/com.relavoi.Agent.Settings.metainfo.xml"
  check "the metainfo's summary is translated" grep -q '<summary xml:lang="fr">' "$stage/usr/local/share/metainfo/com.relavoi.Agent.Settings.metainfo.xml"
else
  skip "appstreamcli validate" "not installed"
fi
if has man; then
  check "man page renders" sh -c "MANWIDTH=80 man -l '$stage/usr/local/share/man/man1/relavoi-agent.1' 2>&1 | grep -q 'relavoi-agent ctl'"
  check "the window's man page renders" sh -c "MANWIDTH=80 man -l '$stage/usr/local/share/man/man1/relavoi-window.1' 2>&1 | grep -q 'com.relavoi.Agent.Settings'"
else
  skip "man page renders" "no man"
fi
if has rsvg-convert; then
  check "icons render" check_svgs "$stage/usr/local/share/icons/hicolor"
else
  skip "icons render" "no rsvg-convert"
fi
ext=$stage/usr/local/share/gnome-shell/extensions/relavoi@relavoi.com
check "the Shell extension is the $shell_form build (gnome-shell ${shell_major:-not installed})" \
  grep -qF "\"shell-version\": $shell_versions" "$ext/metadata.json"
check "the extension's metadata names its uuid" grep -qF '"uuid": "relavoi@relavoi.com"' "$ext/metadata.json"
if [ "$shell_form" = legacy ]; then
  check "the legacy extension has init() and no ES module syntax" \
    sh -c "grep -q '^function init(' '$ext/extension.js' && ! grep -qE '^(import|export) ' '$ext'/*.js"
else
  check "the ESM extension exports its default class" grep -q '^export default class' "$ext/extension.js"
fi
check "SHELL_EXTENSION=esm installs the ESM build" sh -c "AGENT_BIN='$agent_bin' DESTDIR='$work/stage-esm' SHELL_EXTENSION=esm '$install_sh' install >/dev/null &&
  grep -qF '\"shell-version\": [\"45\", \"46\", \"47\", \"48\", \"49\", \"50\", \"51\"]' '$work/stage-esm/usr/local/share/gnome-shell/extensions/relavoi@relavoi.com/metadata.json'"
check "SHELL_EXTENSION=none installs no extension" sh -c "AGENT_BIN='$agent_bin' DESTDIR='$work/stage-none' SHELL_EXTENSION=none '$install_sh' install >/dev/null &&
  test ! -e '$work/stage-none/usr/local/share/gnome-shell'"
check "a bad SHELL_EXTENSION is refused" sh -c "! AGENT_BIN='$agent_bin' DESTDIR='$work/stage-bad' SHELL_EXTENSION=gnome50 '$install_sh' install 2>/dev/null"
check "... before anything is installed" test ! -e "$work/stage-bad"
manifest=$stage/usr/local/share/relavoi-agent/install-manifest.txt
check "manifest lists exactly the installed files" check_manifest_complete "$stage" "$manifest" "$foreign"
cp "$manifest" "$work/manifest.first" 2>/dev/null
check "reinstall exits 0" env AGENT_BIN="$agent_bin" DESTDIR="$stage" "$install_sh" install
check "reinstall keeps the manifest" diff "$work/manifest.first" "$manifest"
check "uninstall exits 0" env DESTDIR="$stage" "$install_sh" uninstall
check "no installed file is left" test -z "$(find "$stage" \( -type f -o -type l \) ! -path "$stage$foreign")"
check "a file the install did not make is kept" test -f "$stage$foreign"
left=$(cd "$stage" && find . -mindepth 1 -type d -printf '/%P\n' | LC_ALL=C sort | tr '\n' ' ')
check "only folders that were there or belong to the system are left" \
  test "$left" = "/etc /etc/xdg /etc/xdg/autostart /usr /usr/local /usr/local/bin /usr/local/lib /usr/local/share /usr/local/share/man "
check "uninstall without a manifest fails" sh -c "! DESTDIR='$stage' '$install_sh' uninstall"
check "install without an agent binary fails" sh -c "! AGENT_BIN='$work/nothing' DESTDIR='$work/stage2' '$install_sh' install"
check "... and leaves nothing behind" test -z "$(find "$work/stage2" \( -type f -o -type l \) 2>/dev/null)"
# A file where the man folder should be stops the install halfway.
mkdir -p "$work/stage3/usr/local/share"
touch "$work/stage3/usr/local/share/man"
check "an install that fails halfway exits non-zero" sh -c "! AGENT_BIN='$agent_bin' DESTDIR='$work/stage3' '$install_sh' install"
check "... and writes a manifest that uninstall cleans up with" env DESTDIR="$work/stage3" "$install_sh" uninstall
check "... leaving only the file that was there" \
  test "$(find "$work/stage3" \( -type f -o -type l \) -printf '/%P\n')" = /usr/local/share/man

# ------------------------------------------- 2. real install into a PREFIX
prefix=$work/prefix
autostart=$prefix/etc/xdg/autostart
echo "# 2. install with no DESTDIR into PREFIX=$prefix"
fake_agent=$agent_bin
python=/usr/bin/python3
if [ -x "$python" ] && "$python" -c 'import gi; gi.require_version("Gio", "2.0"); from gi.repository import Gio' 2>/dev/null; then
  # Stands in for the agent: owns com.relavoi.Agent on the session bus for a while.
  fake_agent=$work/fake-agent
  cat >"$fake_agent" <<EOF
#!/bin/sh
exec $python -c '
from gi.repository import Gio, GLib
loop = GLib.MainLoop()
Gio.bus_own_name(Gio.BusType.SESSION, "com.relavoi.Agent", Gio.BusNameOwnerFlags.NONE, None, None, lambda *a: loop.quit())
GLib.timeout_add_seconds(20, loop.quit)
loop.run()'
EOF
  chmod 0755 "$fake_agent"
fi

check "install into PREFIX exits 0" env AGENT_BIN="$fake_agent" PREFIX="$prefix" \
  XDG_AUTOSTART_DIR="$autostart" SYSTEMD_ENABLE=0 "$install_sh" install
check "every file is there with its mode" check_files "" "$prefix" "$autostart"
check "@bindir@ became $prefix/bin" check_paths "" "$prefix/bin" "$prefix" "$autostart"
check "SYSTEMD_ENABLE=0 leaves the unit unlinked" test ! -e "$prefix/lib/systemd/user/graphical-session.target.wants"
if has gtk-update-icon-cache; then
  check "icon cache made and listed in the manifest" \
    grep -qx "f $prefix/share/icons/hicolor/icon-theme.cache" "$prefix/share/relavoi-agent/install-manifest.txt"
else
  skip "icon cache" "no gtk-update-icon-cache"
fi
if has systemd-analyze; then
  check "systemd-analyze verify accepts the unit" \
    systemd-analyze --man=no verify "$prefix/lib/systemd/user/relavoi-agent.service"
else
  skip "systemd-analyze verify" "no systemd-analyze"
fi

# GTK looks only in the folders hicolor's index.theme lists.
if [ -x "$python" ] && [ -f /usr/share/icons/hicolor/index.theme ] &&
  "$python" -c 'import gi; gi.require_version("Gtk", "3.0"); from gi.repository import Gtk' 2>/dev/null; then
  gtk_finds_icons() {
    "$python" - "$prefix/share/icons" "${icons[@]}" <<'PY' 2>&1 | grep -v 'Gtk-WARNING'
import sys, os, gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
theme = Gtk.IconTheme()
theme.set_search_path([sys.argv[1], "/usr/share/icons"])
theme.set_custom_theme("hicolor")
bad = 0
for rel in sys.argv[2:]:
    name = os.path.basename(rel)[: -len(".svg")]
    info = theme.lookup_icon(name, 16, 0)
    found = info.get_filename() if info else None
    if found != os.path.join(sys.argv[1], "hicolor", rel):
        print("%s: found %s" % (name, found))
        bad = 1
sys.exit(bad)
PY
    return "${PIPESTATUS[0]}"
  }
  check "GTK finds every icon by name" gtk_finds_icons
else
  skip "GTK icon lookup" "needs /usr/bin/python3 with Gtk 3 and hicolor's index.theme"
fi

generator=/usr/lib/systemd/user-generators/systemd-xdg-autostart-generator
if [ -x "$generator" ]; then
  gen() { # CONFIG_DIRS OUT: runs the generator, prints the units it made
    mkdir -p "$2"
    XDG_CONFIG_HOME=$work/no-home XDG_CONFIG_DIRS=$1 "$generator" "$2" "$2" "$2" >/dev/null 2>&1
    find "$2" -maxdepth 1 -name '*.service' -printf '%f\n'
  }
  mkdir -p "$work/control/autostart"
  sed '/^X-systemd-skip=/d' "$autostart/com.relavoi.Agent.desktop" >"$work/control/autostart/com.relavoi.Agent.desktop"
  check "control: without X-systemd-skip the generator makes a unit" \
    test "$(gen "$work/control" "$work/gen-control")" = "app-com.relavoi.Agent@autostart.service"
  check "the generator skips the installed entry (the user unit runs the agent)" \
    test -z "$(gen "$prefix/etc/xdg" "$work/gen")"
else
  skip "xdg autostart generator" "no $generator"
fi

if [ "$fake_agent" != "$agent_bin" ] && has dbus-run-session && has gdbus; then
  private_bus_config "$work" "$prefix/share/dbus-1/services" >"$work/bus.conf"
  check "D-Bus activation starts the installed agent" \
    timeout 40 dbus-run-session --config-file="$work/bus.conf" -- \
    gdbus call --session --timeout 25 --dest com.relavoi.Agent --object-path /com/relavoi/Agent \
    --method org.freedesktop.DBus.Peer.Ping
else
  skip "D-Bus activation" "needs /usr/bin/python3 with gi, dbus-run-session and gdbus"
fi

check "uninstall exits 0" env PREFIX="$prefix" "$install_sh" uninstall
check "the PREFIX the install made is gone" test ! -e "$prefix"

summary --skipped
