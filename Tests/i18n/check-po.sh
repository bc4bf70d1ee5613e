#!/usr/bin/env bash
# The translations of the gettext domains: the agent's (po/, relavoi-agent), the GNOME
# Shell extension's (desktop/gnome-shell/po/, relavoi-shell) and the Plasma widget's own
# (desktop/plasma/po/, plasma_applet_com.relavoi.call). For each:
#   1. every <lang>.po passes msgfmt --check (formats, plural forms, header);
#   2. the template is what xgettext makes from the sources now (scripts/update-pot.sh
#      into a temporary folder): no marked string is missing from it and none is stale;
#   3. every language translates every string of the template;
#   4. the check of 2 fails on a template that lacks a marked string;
#   5. LINGUAS lists every <lang>.po, and both domains have the same languages;
#   6. every translatable="yes" string of the window's GtkBuilder files (window/ui/*.ui), read
#      here without xgettext, is in the agent's template and translated in every language.
# Ends with "N passed, N failed"; exits 1 when a check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-po-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$repo/Tests/lib/checks.sh"
# Each msgid of REF is in DEF (untranslated entries count).
has_all() { msgcmp --use-untranslated "$1" "$2"; }
languages() { (cd "$1" && ls -- *.po | sed 's/\.po$//' | LC_ALL=C sort | tr '\n' ' '); }

# check_domain NAME PO_DIR TEMPLATE SAMPLE_MSGID [update-pot.sh arguments before OUT]
check_domain() {
  local name=$1 dir=$2 template=$3 sample=$4 po
  shift 4
  for po in "$dir"/*.po; do
    check "$name: $(basename "$po") passes msgfmt --check" msgfmt --check -o /dev/null "$po"
  done
  if "$repo/scripts/update-pot.sh" "$@" "$work/$name.pot" 2>"$work/$name-xgettext.log"; then
    check "$name: the template has every marked string (else: scripts/update-pot.sh $*)" has_all "$template" "$work/$name.pot"
    check "$name: the template has no stale string (else: scripts/update-pot.sh $*)" has_all "$work/$name.pot" "$template"
    # A template without one string (as if it had been marked after the template was made).
    msggrep --invert-match --msgid -F -e "$sample" "$template" -o "$work/$name-short.pot"
    check "$name: a template missing a marked string is caught" \
      bash -c "[ -s '$work/$name-short.pot' ] && ! msgcmp --use-untranslated '$work/$name-short.pot' '$work/$name.pot'"
  else
    fail "$name: xgettext makes the template" "$(head -5 "$work/$name-xgettext.log")"
  fi
  for po in "$dir"/*.po; do
    check "$name: $(basename "$po") translates every string of the template" msgcmp "$po" "$template"
  done
  check "$name: LINGUAS lists every .po" test "$(grep -v '^#' "$dir/LINGUAS" | LC_ALL=C sort | tr '\n' ' ')" = "$(languages "$dir")"
}

check_domain relavoi-agent "$repo/po" "$repo/po/relavoi-agent.pot" Verified
check_domain relavoi-shell "$repo/desktop/gnome-shell/po" "$repo/desktop/gnome-shell/po/relavoi-shell.pot" Verified --shell
check_domain plasma-widget "$repo/desktop/plasma/po" "$repo/desktop/plasma/po/plasma_applet_com.relavoi.call.pot" "No call" --plasma
# 6. The window's .ui strings, found by reading the XML (not by xgettext's rules).
ui_strings() {
  /usr/bin/python3 - "$repo"/window/ui/*.ui <<'PY'
import sys, xml.etree.ElementTree as ET
seen = set()
for path in sys.argv[1:]:
    for node in ET.parse(path).iter():
        if node.get("translatable") == "yes" and (node.text or "").strip():
            seen.add(node.text)
for text in sorted(seen):
    print(text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"))
PY
}
ui_in_catalog() { # FILE: every .ui string is a msgid there, translated unless FILE is the template
  local file=$1 missing
  missing=$(ui_strings | while IFS= read -r text; do
    msggrep --msgid -F -e "$text" "$file" 2>/dev/null | msgattrib --no-wrap ${2:+--translated} 2>/dev/null |
      grep -xF "msgid \"$text\"" >/dev/null || echo "$text"
  done)
  [ -z "$missing" ] || { echo "$missing"; return 1; }
}
echo "# the window's .ui: $(ui_strings | wc -l) translatable strings"
check "the window's .ui strings are in the template" ui_in_catalog "$repo/po/relavoi-agent.pot"
for po in "$repo"/po/*.po; do
  check "the window's .ui strings are translated in $(basename "$po")" ui_in_catalog "$po" translated
done
check "the extension speaks the agent's languages" test "$(languages "$repo/po")" = "$(languages "$repo/desktop/gnome-shell/po")"
check "the Plasma widget speaks the agent's languages" test "$(languages "$repo/po")" = "$(languages "$repo/desktop/plasma/po")"

summary
