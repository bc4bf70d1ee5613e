#!/usr/bin/env bash
# The Debian package: builds it (make deb, which reuses the release build)
# and checks it.
#
#   Tests/deb/check-deb.sh
#
# 1. Its files are what scripts/install.sh installs under /usr (the same
#    settings debian/rules uses, without the manifest; the man page
#    compressed) plus Debian's own (copyright, changelog, lintian overrides), the
#    window (relavoi-window) among them: its binary, .ui, desktop entry, D-Bus service,
#    AppStream metainfo and man page.
# 2. Depends: the shared libraries the agent links (dh_shlibdeps), plus
#    glib-networking, GTK 4 and libadwaita for the window; no Swift package; conffiles; the user unit enabled by
#    the maintainer scripts and its enablement dropped on remove.
# 3. lintian: no error and no warning (overrides carry their reasons in
#    debian/relavoi-agent.lintian-overrides).
# 4. Unpacked (dpkg-deb -x) into a temporary root, the agent runs: --version
#    matches the package's version, --help and login --help print usage; the window's
#    --help too, its service file and entry name /usr/bin/relavoi-window, and
#    appstreamcli validates its metainfo.
# Ends with "N passed, N failed"; exits 1 when a check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-deb-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

. "$repo/Tests/lib/checks.sh"

if ! make -C "$repo" --no-print-directory deb >"$work/build.log" 2>&1; then
  tail -30 "$work/build.log"
  echo "FAIL - make deb"
  exit 1
fi
ok "make deb"
mapfile -t debs < <(ls "$repo"/dist/relavoi-agent_*.deb 2>/dev/null)
if [ "${#debs[@]}" -ne 1 ]; then
  echo "FAIL - exactly one dist/relavoi-agent_*.deb (found ${#debs[@]})"
  exit 1
fi
deb=${debs[0]}
version=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)
check "named relavoi-agent_<version>_<arch>.deb" test "$(basename "$deb")" = "relavoi-agent_${version}_${arch}.deb"
check "built for this machine's architecture" test "$arch" = "$(dpkg --print-architecture)"

# 1. The file list against install.sh's own.
PREFIX=/usr DESTDIR="$work/expected" SYSTEMD_ENABLE=0 AGENT_BIN=/bin/true SANDBOX_BIN=/bin/true WINDOW_BIN=/bin/true \
  "$repo/scripts/install.sh" install >/dev/null
rm -f "$work/expected/usr/share/relavoi-agent/install-manifest.txt"
{
  (cd "$work/expected" && find . ! -type d | sed -e 's|^\.||' -e 's|^/usr/share/man/\(.*\)$|/usr/share/man/\1.gz|')
  printf '%s\n' /usr/share/doc/relavoi-agent/copyright /usr/share/doc/relavoi-agent/changelog.gz \
    /usr/share/lintian/overrides/relavoi-agent
} | LC_ALL=C sort >"$work/expected.list"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\.||' | LC_ALL=C sort >"$work/actual.list"
check "the files are install.sh's under /usr, plus Debian's" diff -u "$work/expected.list" "$work/actual.list"
for f in /usr/bin/relavoi-agent /etc/xdg/autostart/com.relavoi.Agent.desktop \
  /usr/lib/systemd/user/relavoi-agent.service /usr/share/dbus-1/services/com.relavoi.Agent.service \
  /usr/share/man/man1/relavoi-agent.1.gz /usr/share/icons/hicolor/scalable/apps/com.relavoi.Agent.svg \
  /usr/bin/relavoi-window /usr/share/relavoi-agent/window/window.ui /usr/share/applications/com.relavoi.Agent.Settings.desktop \
  /usr/share/dbus-1/services/com.relavoi.Agent.Settings.service /usr/share/metainfo/com.relavoi.Agent.Settings.metainfo.xml \
  /usr/share/man/man1/relavoi-window.1.gz; do
  check "ships $f" grep -qxF "$f" "$work/actual.list"
done
check "no install manifest (dpkg keeps the list)" bash -c "! grep -q install-manifest '$work/actual.list'"
check "the unit is not linked in /usr (postinst enables it)" bash -c "! grep -q 'wants/' '$work/actual.list'"

# 2. Control fields and maintainer scripts.
depends=$(dpkg-deb -f "$deb" Depends)
echo "# Depends: $depends"
for p in libc6 libglib2.0-0 libnotify4 libsoup-3.0-0 libsecret-1-0 glib-networking libgtk-4-1 libadwaita-1-0; do
  check "Depends on $p" grep -Eq "(^|, )$p( |,|$)" <<<"$depends"
done
check "no Swift package in Depends (runtime linked in)" bash -c "! grep -qi swift <<<'$depends'"
check "no unresolved substitution" bash -c "! grep -q '\\\$' <<<'$depends'"
dpkg-deb -e "$deb" "$work/control"
check "the autostart entry is a conffile" grep -qxF /etc/xdg/autostart/com.relavoi.Agent.desktop "$work/control/conffiles"
check "postinst enables the user unit" grep -q "deb-systemd-helper --user enable 'relavoi-agent.service'" "$work/control/postinst"
check "postrm drops the unit's enablement on remove and purge" \
  test "$(grep -c "deb-systemd-helper --user purge 'relavoi-agent.service'" "$work/control/postrm")" -eq 2
check "postrm is valid sh" sh -n "$work/control/postrm"

# 3. lintian.
lintian --pedantic --info "$deb" >"$work/lintian.log" 2>&1
echo "# lintian: $(grep -c '^[EWIPX]:' "$work/lintian.log") tags"
sed -n 's/^/#   /p' "$work/lintian.log" | grep -v 'root privileges'
check "lintian reports no error" bash -c "! grep -q '^E:' '$work/lintian.log'"
check "lintian reports no warning" bash -c "! grep -q '^W:' '$work/lintian.log'"

# 4. The unpacked agent runs.
dpkg-deb -x "$deb" "$work/root"
agent=$work/root/usr/bin/relavoi-agent
check "the autostart entry runs, and is skipped without, /usr/bin/relavoi-agent" \
  bash -c "grep -qx 'Exec=env G_SLICE=always-malloc /usr/bin/relavoi-agent' '$work/root/etc/xdg/autostart/com.relavoi.Agent.desktop' &&
    grep -qx 'TryExec=/usr/bin/relavoi-agent' '$work/root/etc/xdg/autostart/com.relavoi.Agent.desktop'"
check "--version is the package's" test "$("$agent" --version 2>&1)" = "relavoi-agent $version"
check "--help prints usage" bash -c "'$agent' --help | grep -q '^Usage:' && '$agent' --help | grep -q 'relavoi-agent login'"
check "login --help prints usage" bash -c "'$agent' login --help | grep -q '^Usage: relavoi-agent login'"
window=$work/root/usr/bin/relavoi-window
check "the window's --help prints usage" bash -c "'$window' --help | grep -q '^Usage: relavoi-window'"
check "the window's D-Bus service starts /usr/bin/relavoi-window as a service" \
  grep -qx 'Exec=/usr/bin/relavoi-window --gapplication-service' "$work/root/usr/share/dbus-1/services/com.relavoi.Agent.Settings.service"
check "the window's entry runs /usr/bin/relavoi-window, DBusActivatable" \
  bash -c "grep -qx 'Exec=/usr/bin/relavoi-window' '$work/root/usr/share/applications/com.relavoi.Agent.Settings.desktop' &&
    grep -qx 'DBusActivatable=true' '$work/root/usr/share/applications/com.relavoi.Agent.Settings.desktop'"
if command -v appstreamcli >/dev/null 2>&1; then
  check "appstreamcli validates the window's metainfo" \
    appstreamcli validate --no-net "$work/root/usr/share/metainfo/com.relavoi.Agent.Settings.metainfo.xml"
else
  skip "appstreamcli validate" "not installed"
fi

summary --skipped
