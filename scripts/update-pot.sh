#!/usr/bin/env bash
# Writes the gettext template of relavoi-agent's texts from the sources:
#
#   scripts/update-pot.sh [OUT]           (default po/relavoi-agent.pot)
#   scripts/update-pot.sh --shell [OUT]   the GNOME Shell extension's own domain, relavoi-shell
#                                         (default desktop/gnome-shell/po/relavoi-shell.pot)
#   scripts/update-pot.sh --plasma [OUT]  the Plasma widget's own texts, plasma_applet_com.relavoi.call
#                                         (default desktop/plasma/po/plasma_applet_com.relavoi.call.pot;
#                                         the pill's words come from relavoi-shell's catalogs)
#
# Swift texts are marked L("…") and LN("…", "…", n) (Sources/Adapters/RelavoiI18n);
# xgettext reads the Swift files as C, which fits those one-line literals.
# The desktop entries' Name, GenericName, Comment and Keywords come along, and the window's
# texts: its GtkBuilder files (window/ui/*.ui, `translatable="yes"`, through GTK 4's ITS
# rules) and its AppStream metainfo (appstream's ITS rules). The extension's texts are
# marked _('…'), N_('…') and ngettext('…', '…', n) in desktop/gnome-shell/src/*.js.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The header's creation date changes on every run: a fixed one keeps the file stable.
stable_header() {
  sed -e 's/^"POT-Creation-Date: .*"$/"POT-Creation-Date: 2026-12-01 00:00+0000\\n"/' \
    -e 's/charset=CHARSET/charset=UTF-8/' -e "s/^\"Project-Id-Version: PACKAGE VERSION\\\\n\"\$/\"Project-Id-Version: $1\\\\n\"/" \
    -e 's/^"Report-Msgid-Bugs-To: \\n"$/"Report-Msgid-Bugs-To: dev@relavoi.com\\n"/' \
    -e "s/same license as the PACKAGE package/same license as the $1 package/" \
    -e "s/^# SOME DESCRIPTIVE TITLE\\.\$/# The texts of $1: scripts\/update-pot.sh makes this file (make pot)./"
}
cd "$repo"
if [ "${1:-}" = --shell ]; then
  out=${2:-$repo/desktop/gnome-shell/po/relavoi-shell.pot}
  xgettext --language=JavaScript --from-code=UTF-8 --keyword= --keyword=_ --keyword=N_ --keyword=ngettext:1,2 \
    --add-comments=TRANSLATORS: --no-location --sort-output --package-name=relavoi-shell \
    --msgid-bugs-address=dev@relavoi.com -o - desktop/gnome-shell/src/*.js | stable_header relavoi-shell >"$out"
  exit 0
fi
if [ "${1:-}" = --plasma ]; then
  out=${2:-$repo/desktop/plasma/po/plasma_applet_com.relavoi.call.pot}
  xgettext --language=JavaScript --from-code=UTF-8 --keyword= --keyword=i18nd:2 --keyword=i18ndp:2,3 \
    --add-comments=TRANSLATORS: --no-location --sort-output --package-name=plasma_applet_com.relavoi.call \
    --msgid-bugs-address=dev@relavoi.com -o - desktop/plasma/com.relavoi.call/contents/ui/*.qml |
    stable_header plasma_applet_com.relavoi.call >"$out"
  exit 0
fi
out=${1:-$repo/po/relavoi-agent.pot}
mapfile -t swift < <(grep -rlE '(^|[^A-Za-z0-9_.])LN?\(' Sources --include='*.swift' | LC_ALL=C sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xgettext --language=C --from-code=UTF-8 --keyword= --keyword=L --keyword=LN:1,2 --add-comments=TRANSLATORS: \
  --no-location --sort-output --package-name=relavoi-agent --msgid-bugs-address=dev@relavoi.com \
  -o "$tmp/relavoi-agent.pot" "${swift[@]}"
xgettext --language=Desktop --from-code=UTF-8 --no-location --sort-output --join-existing \
  -o "$tmp/relavoi-agent.pot" desktop/com.relavoi.Agent.desktop desktop/com.relavoi.Agent.Settings.desktop
# xgettext finds the rules by the files' names (gtk4builder.loc: *.ui; metainfo.loc: *.metainfo.xml).
xgettext --from-code=UTF-8 --add-comments=TRANSLATORS: --no-location --sort-output --join-existing \
  -o "$tmp/relavoi-agent.pot" window/ui/*.ui desktop/com.relavoi.Agent.Settings.metainfo.xml
stable_header relavoi-agent <"$tmp/relavoi-agent.pot" >"$out"
