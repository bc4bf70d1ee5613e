#!/usr/bin/env bash
# Installs the Debian 12 packages relavoi-agent needs to build, test and demo.
# Idempotent: installs only what is missing and says what that is.
# Usage: scripts/install-deps.sh [build|test|demo|deb]   (default: test)
set -euo pipefail

build_pkgs=(pkg-config libglib2.0-dev libnotify-dev libsoup-3.0-dev libsecret-1-dev glib-networking
            libphonenumber-dev libdbusmenu-glib-dev gettext libgtk-4-dev libadwaita-1-dev)
test_pkgs=(dbus dbus-x11 python3 python3-dbusmock python3-gi dunst xvfb xauth x11-utils imagemagick
           libnotify-bin desktop-file-utils gir1.2-glib-2.0 librsvg2-bin gir1.2-gtk-3.0 gnome-keyring
           gjs gnome-shell webp-pixbuf-loader locales mpv mpv-mpris
           at-spi2-core gir1.2-atspi-2.0 gir1.2-secret-1 appstream
           sway mako-notifier grim systemd sway-notification-center xfconf cinnamon-desktop-data
           xdg-utils qt6-declarative-dev-tools qml6-module-qttest qml6-module-qtquick-window
           qml6-module-qtqml-workerscript qml6-module-qtquick-layouts waybar)
# The translation tests run the agent under these (LANG=fr_FR.UTF-8).
test_locales=(fr_FR pt_BR)
# make deb (debian/ with debhelper); make test builds and checks the package too.
deb_pkgs=(debhelper dpkg-dev lintian fakeroot)
demo_pkgs=(dbus dbus-x11 python3 dunst xvfb xauth x11-utils imagemagick fonts-dejavu-core)

case "${1:-test}" in
  build) wanted=("${build_pkgs[@]}") ;;
  test) wanted=("${build_pkgs[@]}" "${test_pkgs[@]}" "${deb_pkgs[@]}") ;;
  demo) wanted=("${build_pkgs[@]}" "${demo_pkgs[@]}") ;;
  deb) wanted=("${build_pkgs[@]}" "${deb_pkgs[@]}") ;;
  *) echo "usage: $0 [build|test|demo|deb]" >&2; exit 2 ;;
esac

# Locales the tests need, generated once (localedef, from the locales package).
ensure_locales() {
  [ "${1:-}" = test ] || return 0
  local l sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  for l in "${test_locales[@]}"; do
    locale -a 2>/dev/null | grep -qix "$l.utf8" && continue
    echo "install-deps: generating the $l.UTF-8 locale"
    "${sudo[@]}" localedef -i "$l" -f UTF-8 "$l.UTF-8"
  done
}

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#wanted[@]} Debian packages present"
  ensure_locales "${1:-test}"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -o DPkg::Lock::Timeout=600 -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
ensure_locales "${1:-test}"
