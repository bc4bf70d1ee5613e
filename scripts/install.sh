#!/usr/bin/env bash
# Installs or uninstalls relavoi-agent and its desktop integration.
# Run `scripts/install.sh --help` for the interface; desktop/README.md says
# why the files go where they go.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/install.sh install|uninstall

install    copies the agent, its autostart entry, systemd user unit, D-Bus
           service file, icons, man page and GNOME Shell extension, and
           writes a manifest of every file and folder it made
uninstall  removes exactly what the manifest lists (the manifest too); a
           folder goes only if the install made it and it is now empty

Environment (defaults in brackets; uninstall needs the same PREFIX, DESTDIR
and DATADIR as the install, to find the manifest):
  PREFIX                 [/usr/local]
  DESTDIR                staging root prepended to every path []
  BINDIR                 [$PREFIX/bin]
  DATADIR                [$PREFIX/share]
  MANDIR                 [$DATADIR/man]
  AGENT_BIN              the built agent [.build/release/relavoi-agent; a
                         relative path is tried from the current folder,
                         then from the repository]
  SANDBOX_BIN            the built relavoi-sandbox, which `relavoi-agent
                         --demo` starts [beside AGENT_BIN]; installed to
                         $PREFIX/libexec/relavoi-agent/
  LIBEXECDIR             [$PREFIX/libexec]
  XDG_AUTOSTART_DIR      [/etc/xdg/autostart] session managers read autostart
                         entries from $XDG_CONFIG_DIRS/autostart, and
                         XDG_CONFIG_DIRS defaults to /etc/xdg whatever the
                         PREFIX, so /usr/local/etc/xdg would not be read
  APPLICATIONS_DIR       [$DATADIR/applications] the same entry, so that
                         notification servers can match the banners'
                         desktop-entry hint to a name and an icon
  SYSTEMD_USER_UNIT_DIR  [$PREFIX/lib/systemd/user] systemd reads
                         /usr/lib/systemd/user and /usr/local/lib/systemd/user
  DBUS_SERVICES_DIR      [$DATADIR/dbus-1/services] the session bus reads
                         $XDG_DATA_DIRS/dbus-1/services
  SYSTEMD_ENABLE         [1] 0: do not link the unit into
                         graphical-session.target.wants/ (leave enabling to
                         presets or `systemctl --global enable`)
  SHELL_EXTENSION        [auto] the GNOME Shell extension relavoi@relavoi.com
                         to install: auto = the build that fits the installed
                         gnome-shell (esm for 45 and later, legacy for 43/44
                         and when none is installed); legacy, esm, or none
  SHELL_EXTENSIONS_DIR   [$DATADIR/gnome-shell/extensions] the extension goes
                         to SHELL_EXTENSIONS_DIR/relavoi@relavoi.com/; turn it
                         on with `gnome-extensions enable relavoi@relavoi.com`
  PLASMOIDS_DIR          [$DATADIR/plasma/plasmoids] the Plasma 6 widget goes to
                         PLASMOIDS_DIR/com.relavoi.call/ (scripts/build-plasmoid.sh),
                         its catalogs to DATADIR/locale/<lang>/LC_MESSAGES/
                         plasma_applet_com.relavoi.call.mo; nothing adds it to a
                         panel (the agent asks first: docs/plasma.md)
Translations (po/*.po, compiled with msgfmt) go to DATADIR/locale/<lang>/
LC_MESSAGES/relavoi-agent.mo, and the desktop entries carry the translated
Name, GenericName and Comment; the agent reads its catalogs from
BINDIR/../share/locale.
The icon cache is refreshed (gtk-update-icon-cache -q -t -f) when DESTDIR is
empty and the tool exists.
EOF
}

die() { echo "install.sh: $*" >&2; exit 1; }

mode=${1:-}
case "$mode" in
  install | uninstall) ;;
  -h | --help | help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
[ $# -le 1 ] || die "unexpected arguments after '$mode' (settings go in the environment)"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

strip_slash() { local p=$1; while [ "${#p}" -gt 1 ] && [ "${p%/}" != "$p" ]; do p=${p%/}; done; printf '%s' "$p"; }

PREFIX=$(strip_slash "${PREFIX:-/usr/local}")
DESTDIR=$(strip_slash "${DESTDIR:-}")
[ "$DESTDIR" != "/" ] || DESTDIR=""
BINDIR=$(strip_slash "${BINDIR:-$PREFIX/bin}")
LIBEXECDIR=$(strip_slash "${LIBEXECDIR:-$PREFIX/libexec}")
DATADIR=$(strip_slash "${DATADIR:-$PREFIX/share}")
MANDIR=$(strip_slash "${MANDIR:-$DATADIR/man}")
XDG_AUTOSTART_DIR=$(strip_slash "${XDG_AUTOSTART_DIR:-/etc/xdg/autostart}")
APPLICATIONS_DIR=$(strip_slash "${APPLICATIONS_DIR:-$DATADIR/applications}")
SYSTEMD_USER_UNIT_DIR=$(strip_slash "${SYSTEMD_USER_UNIT_DIR:-$PREFIX/lib/systemd/user}")
DBUS_SERVICES_DIR=$(strip_slash "${DBUS_SERVICES_DIR:-$DATADIR/dbus-1/services}")
SYSTEMD_ENABLE=${SYSTEMD_ENABLE:-1}
SHELL_EXTENSION=${SHELL_EXTENSION:-auto}
SHELL_EXTENSIONS_DIR=$(strip_slash "${SHELL_EXTENSIONS_DIR:-$DATADIR/gnome-shell/extensions}")
SHELL_EXTENSION_UUID=relavoi@relavoi.com
ICON_DIR=$DATADIR/icons/hicolor
MANIFEST=$DATADIR/relavoi-agent/install-manifest.txt

PLASMOIDS_DIR=$(strip_slash "${PLASMOIDS_DIR:-$DATADIR/plasma/plasmoids}")
PLASMOID_ID=com.relavoi.call
for var in PREFIX BINDIR DATADIR MANDIR XDG_AUTOSTART_DIR APPLICATIONS_DIR SYSTEMD_USER_UNIT_DIR DBUS_SERVICES_DIR SHELL_EXTENSIONS_DIR PLASMOIDS_DIR; do
  case "${!var}" in
    /*) ;;
    *) die "$var must be an absolute path (got '${!var}')" ;;
  esac
done
case "$SHELL_EXTENSION" in
  auto | legacy | esm | none) ;;
  *) die "SHELL_EXTENSION must be auto, legacy, esm or none (got '$SHELL_EXTENSION')" ;;
esac
if [ -n "$DESTDIR" ]; then
  case "$DESTDIR" in
    /*) ;;
    *) DESTDIR=$(pwd)/$DESTDIR ;;
  esac
fi

# A path is safe for the manifest: absolute, no . or .. parts, one line.
safe_path() {
  case "$1" in
    / | */./* | */../* | */. | */.. | *$'\n'*) return 1 ;;
    /*) return 0 ;;
    *) return 1 ;;
  esac
}

# The extension build for this machine: GNOME 45 loads only ES modules, 43 and 44 only
# the legacy form; with no gnome-shell (a package build, a server) the legacy one.
shell_extension_form() {
  [ "$SHELL_EXTENSION" = auto ] || { echo "$SHELL_EXTENSION"; return; }
  local major
  major=$(gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9][0-9]*\).*/\1/p')
  if [ -n "$major" ] && [ "$major" -ge 45 ]; then echo esm; else echo legacy; fi
}

# ---------------------------------------------------------------- uninstall
do_uninstall() {
  local manifest=$DESTDIR$MANIFEST
  [ -f "$manifest" ] || die "no manifest at $manifest: nothing was installed with this PREFIX/DATADIR/DESTDIR"
  local -a files=() dirs=()
  local kind path
  while IFS=' ' read -r kind path; do
    case "$kind" in '' | '#'*) continue ;; esac
    safe_path "$path" || die "refusing unsafe manifest entry: $kind $path"
    case "$kind" in
      f | l) files+=("$path") ;;
      d) dirs+=("$path") ;;
      *) die "unknown manifest entry: $kind $path" ;;
    esac
  done <"$manifest"

  local removed=0
  for path in "${files[@]}"; do
    if [ -e "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ]; then
      [ ! -d "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ] || { echo "install.sh: skipping $path: now a folder" >&2; continue; }
      rm -f -- "$DESTDIR$path"
      removed=$((removed + 1))
    fi
  done

  # A cache the install did not make (so not removed above) must not go on
  # listing our icons.
  if [ -z "$DESTDIR" ] && [ -f "$ICON_DIR/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
    gtk-update-icon-cache -q -t -f "$ICON_DIR" || echo "install.sh: gtk-update-icon-cache failed (ignored)" >&2
  fi

  # Deepest folders first: a child's path is longer than its parent's.
  local kept=0
  while IFS= read -r path; do
    [ -n "$path" ] || continue
    if [ -d "$DESTDIR$path" ] && ! [ -L "$DESTDIR$path" ]; then
      rmdir -- "$DESTDIR$path" 2>/dev/null || kept=$((kept + 1))
    fi
  done < <(for path in "${dirs[@]}"; do printf '%d %s\n' "${#path}" "$path"; done | sort -rn | cut -d' ' -f2-)

  local note=""
  [ "$kept" = 0 ] || note="; kept $kept folders that are not empty"
  echo "relavoi-agent: removed $removed files$note"
}

# ------------------------------------------------------------------ install
declare -a entries=()  # manifest lines, in the order things were made

record() { entries+=("$1 $2"); }

# Folders that belong to the system: made if missing (in a fresh DESTDIR)
# but never listed, so an uninstall never removes them even when empty.
is_system_dir() {
  case "$1" in
    / | /etc | /etc/xdg | /opt | /usr | /usr/bin | /usr/lib | /usr/share | /usr/share/man | \
      /usr/local | /usr/local/bin | /usr/local/etc | /usr/local/lib | /usr/local/share | /usr/local/share/man) return 0 ;;
    *) return 1 ;;
  esac
}

# Makes folder $1 (a path without DESTDIR) and records each part it made.
ensure_dir() {
  local dir=$1 p
  local -a missing=()
  p=$dir
  while [ ! -d "$DESTDIR$p" ]; do
    missing=("$p" "${missing[@]}")
    p=$(dirname "$p")
  done
  for p in "${missing[@]}"; do
    mkdir -m 0755 -- "$DESTDIR$p"
    is_system_dir "$p" || record d "$p"
  done
}

# put MODE SOURCE DEST: copies a file.
put() {
  ensure_dir "$(dirname "$3")"
  install -m "$1" -- "$2" "$DESTDIR$3"
  record f "$3"
}

# put_filtered SOURCE DEST SED-SCRIPT: copies a text file through sed, 0644.
put_filtered() {
  local tmp
  tmp=$(mktemp)
  sed -e "$3" "$1" >"$tmp"
  put 0644 "$tmp" "$2"
  rm -f -- "$tmp"
}

# put_link TARGET DEST: a relative symlink.
put_link() {
  ensure_dir "$(dirname "$2")"
  ln -sfn -- "$1" "$DESTDIR$2"
  record l "$2"
}

# Writes the manifest: what this install made, plus what an earlier install
# made that is still there (so reinstalling and then uninstalling leaves
# nothing).
write_manifest() {
  local manifest=$DESTDIR$MANIFEST old
  local -a previous=()
  if [ -f "$manifest" ]; then
    while IFS= read -r old; do
      case "$old" in '' | '#'*) continue ;; esac
      previous+=("$old")
    done <"$manifest"
  fi
  ensure_dir "$(dirname "$MANIFEST")"
  record f "$MANIFEST"

  local tmp line kind path
  tmp=$(mktemp)
  {
    echo "# relavoi-agent install manifest, read by 'scripts/install.sh uninstall'."
    echo "# One entry a line: f file, l symlink, d folder the install made; paths without DESTDIR."
    for line in "${previous[@]}" "${entries[@]}"; do
      kind=${line%% *}
      path=${line#* }
      case "$kind" in f | l | d) ;; *) continue ;; esac
      safe_path "$path" || continue
      if [ "$path" = "$MANIFEST" ] || [ -e "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ]; then
        printf '%s %s\n' "$kind" "$path"
      fi
    done | awk '!seen[$0]++'
  } >"$tmp"
  install -m 0644 -- "$tmp" "$manifest"
  rm -f -- "$tmp"
}

do_install() {
  local agent=${AGENT_BIN:-.build/release/relavoi-agent}
  if [ "${agent#/}" = "$agent" ] && [ ! -e "$agent" ] && [ -e "$repo/$agent" ]; then
    agent=$repo/$agent
  fi
  { [ -f "$agent" ] && [ -x "$agent" ]; } || die "no executable agent at '$agent' (build it with 'make release' or set AGENT_BIN)"
  local sandbox=${SANDBOX_BIN:-$(dirname "$agent")/relavoi-sandbox}
  { [ -f "$sandbox" ] && [ -x "$sandbox" ]; } || die "no executable relavoi-sandbox at '$sandbox' (make release builds it; or set SANDBOX_BIN)"
  for f in desktop/com.relavoi.Agent.desktop desktop/relavoi-agent.service desktop/com.relavoi.Agent.service docs/relavoi-agent.1; do
    [ -f "$repo/$f" ] || die "missing $repo/$f"
  done

  # BINDIR goes unquoted into Exec= lines that systemd, dbus and desktop
  # entries each parse in their own way (spaces split, % and $ expand).
  [[ "$BINDIR" =~ ^[A-Za-z0-9/._+-]+$ ]] || die "BINDIR may hold only letters, digits and / . _ + - (got '$BINDIR')"
  local bindir_sed exec_sed
  bindir_sed="s|@bindir@|$BINDIR|g"
  # The entry runs the agent by absolute path, so a BINDIR outside PATH works;
  # TryExec makes session managers skip an entry left behind by a removed
  # agent (dpkg keeps the autostart entry, a conffile, until purge).
  exec_sed="s|^Exec=env G_SLICE=always-malloc relavoi-agent\$|Exec=env G_SLICE=always-malloc $BINDIR/relavoi-agent|;s|^TryExec=relavoi-agent\$|TryExec=$BINDIR/relavoi-agent|"

  # The catalogs and the translated desktop entry, made before anything is installed.
  local i18n
  i18n=$(mktemp -d)
  # shellcheck disable=SC2064 # expand now: the trap outlives this function's locals
  trap "rm -rf -- '$i18n'" RETURN
  "$repo/scripts/compile-translations.sh" "$i18n/locale" || die "could not compile the translations (msgfmt)"
  "$repo/scripts/compile-translations.sh" --desktop-entry "$i18n/com.relavoi.Agent.desktop" ||
    die "could not translate the desktop entry (msgfmt --desktop)"
  "$repo/scripts/compile-translations.sh" --desktop-entry "$i18n/com.relavoi.Agent.Settings.desktop" \
    "$repo/desktop/com.relavoi.Agent.Settings.desktop" || die "could not translate the window's desktop entry (msgfmt --desktop)"
  "$repo/scripts/compile-translations.sh" --metainfo "$i18n/com.relavoi.Agent.Settings.metainfo.xml" ||
    die "could not translate the window's metainfo (msgfmt --xml)"

  [ -z "$DESTDIR" ] || mkdir -p -- "$DESTDIR"
  # From here on, whatever is made gets into a manifest, even if a step fails
  # halfway, so that uninstall can clean up.
  trap 'write_manifest || echo "install.sh: could not write the manifest" >&2' EXIT

  put 0755 "$agent" "$BINDIR/relavoi-agent"
  # Only --demo runs it: the agent itself holds no sandbox code.
  put 0755 "$sandbox" "$LIBEXECDIR/relavoi-agent/relavoi-sandbox"
  put_filtered "$i18n/com.relavoi.Agent.desktop" "$XDG_AUTOSTART_DIR/com.relavoi.Agent.desktop" "$exec_sed"
  put_filtered "$i18n/com.relavoi.Agent.desktop" "$APPLICATIONS_DIR/com.relavoi.Agent.desktop" "$exec_sed"
  put_filtered "$repo/desktop/relavoi-agent.service" "$SYSTEMD_USER_UNIT_DIR/relavoi-agent.service" "$bindir_sed"
  if [ "$SYSTEMD_ENABLE" != 0 ]; then
    put_link ../relavoi-agent.service "$SYSTEMD_USER_UNIT_DIR/graphical-session.target.wants/relavoi-agent.service"
  fi
  put_filtered "$repo/desktop/com.relavoi.Agent.service" "$DBUS_SERVICES_DIR/com.relavoi.Agent.service" "$bindir_sed"
  # The window (relavoi-window): the app grid's entry, its D-Bus activation (single
  # instance; the agent's notices and menus open it so), its AppStream metainfo, its .ui.
  local window=${WINDOW_BIN:-$(dirname "$agent")/relavoi-window}
  if [ -f "$window" ] && [ -x "$window" ]; then
    put 0755 "$window" "$BINDIR/relavoi-window"
    put_filtered "$i18n/com.relavoi.Agent.Settings.desktop" "$APPLICATIONS_DIR/com.relavoi.Agent.Settings.desktop" \
      "s|^Exec=relavoi-window\$|Exec=$BINDIR/relavoi-window|;s|^TryExec=relavoi-window\$|TryExec=$BINDIR/relavoi-window|"
    put_filtered "$repo/desktop/com.relavoi.Agent.Settings.service" "$DBUS_SERVICES_DIR/com.relavoi.Agent.Settings.service" "$bindir_sed"
    put 0644 "$i18n/com.relavoi.Agent.Settings.metainfo.xml" "$DATADIR/metainfo/com.relavoi.Agent.Settings.metainfo.xml"
    local ui
    for ui in "$repo"/window/ui/*.ui; do put 0644 "$ui" "$DATADIR/relavoi-agent/window/$(basename "$ui")"; done
    put 0644 "$repo/docs/relavoi-window.1" "$MANDIR/man1/relavoi-window.1"
  else
    echo "install.sh: no relavoi-window beside the agent (WINDOW_BIN): the window is not installed" >&2
  fi
  put 0644 "$repo/docs/relavoi-agent.1" "$MANDIR/man1/relavoi-agent.1"
  local mo
  while IFS= read -r mo; do
    put 0644 "$mo" "$DATADIR/locale/${mo#"$i18n/locale/"}"
  done < <(find "$i18n/locale" -type f -name relavoi-agent.mo | LC_ALL=C sort)

  local svg rel
  while IFS= read -r svg; do
    rel=${svg#"$repo/icons/hicolor/"}
    put 0644 "$svg" "$ICON_DIR/$rel"
  done < <(find "$repo/icons/hicolor" -type f -name '*.svg' | LC_ALL=C sort)

  local form
  form=$(shell_extension_form)
  if [ "$form" != none ]; then
    local built file
    built=$(mktemp -d)
    "$repo/scripts/build-shell-extension.sh" --out "$built" "$form" >/dev/null || { rm -rf -- "$built"; die "could not build the $form GNOME Shell extension"; }
    while IFS= read -r file; do
      rel=${file#"$built/$form/$SHELL_EXTENSION_UUID/"}
      put 0644 "$file" "$SHELL_EXTENSIONS_DIR/$SHELL_EXTENSION_UUID/$rel"
    done < <(find "$built/$form/$SHELL_EXTENSION_UUID" -type f | LC_ALL=C sort)
    rm -rf -- "$built"
  fi

  local plasmoid file
  plasmoid=$(mktemp -d)
  "$repo/scripts/build-plasmoid.sh" --out "$plasmoid" >/dev/null || { rm -rf -- "$plasmoid"; die "could not build the Plasma widget"; }
  while IFS= read -r file; do
    rel=${file#"$plasmoid/$PLASMOID_ID/"}
    put 0644 "$file" "$PLASMOIDS_DIR/$PLASMOID_ID/$rel"
  done < <(find "$plasmoid/$PLASMOID_ID" -type f | LC_ALL=C sort)
  while IFS= read -r file; do
    put 0644 "$file" "$DATADIR/locale/${file#"$plasmoid/locale/"}"
  done < <(find "$plasmoid/locale" -type f -name '*.mo' | LC_ALL=C sort)
  rm -rf -- "$plasmoid"

  if [ -z "$DESTDIR" ] && command -v gtk-update-icon-cache >/dev/null; then
    local had_cache=0
    [ ! -e "$ICON_DIR/icon-theme.cache" ] || had_cache=1
    if gtk-update-icon-cache -q -t -f "$ICON_DIR"; then
      [ "$had_cache" = 1 ] || [ ! -e "$ICON_DIR/icon-theme.cache" ] || record f "$ICON_DIR/icon-theme.cache"
    else
      echo "install.sh: gtk-update-icon-cache failed (ignored)" >&2
    fi
  fi

  trap - EXIT
  write_manifest

  local count
  count=$(grep -c '^[fl] ' "$DESTDIR$MANIFEST")
  echo "relavoi-agent: installed $count files under ${DESTDIR:-/}; manifest $MANIFEST"
  [ "$form" = none ] || echo "relavoi-agent: GNOME Shell extension ($form build) in $SHELL_EXTENSIONS_DIR/$SHELL_EXTENSION_UUID; turn it on with: gnome-extensions enable $SHELL_EXTENSION_UUID"
  if [ -z "$DESTDIR" ]; then
    echo "relavoi-agent: starts with the next graphical login; to start it now: systemctl --user daemon-reload && systemctl --user start relavoi-agent.service"
  fi
}

case "$mode" in
  install) do_install ;;
  uninstall) do_uninstall ;;
esac
