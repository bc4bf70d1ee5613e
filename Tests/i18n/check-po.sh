#!/usr/bin/env bash
# The translations (po/):
#   1. every po/*.po passes msgfmt --check (formats, plural forms, header);
#   2. po/relavoi-agent.pot is what xgettext makes from the sources now
#      (scripts/update-pot.sh into a temporary folder): no marked string is
#      missing from it and none is stale;
#   3. every language translates every string of the template;
#   4. the check of 2 fails on a template that lacks a marked string.
# Ends with "N passed, N failed"; exits 1 when a check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-po-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$repo/Tests/lib/checks.sh"
# Each msgid of REF is in DEF (untranslated entries count).
has_all() { msgcmp --use-untranslated "$1" "$2"; }

for po in "$repo"/po/*.po; do
  check "$(basename "$po") passes msgfmt --check" msgfmt --check -o /dev/null "$po"
done
if "$repo/scripts/update-pot.sh" "$work/fresh.pot" 2>"$work/xgettext.log"; then
  check "the template has every marked string (else: scripts/update-pot.sh)" has_all "$repo/po/relavoi-agent.pot" "$work/fresh.pot"
  check "the template has no stale string (else: scripts/update-pot.sh)" has_all "$work/fresh.pot" "$repo/po/relavoi-agent.pot"
  # A template without "Verified" (as if L("Verified") had been added after it was made).
  msggrep --invert-match --msgid -F -e Verified "$repo/po/relavoi-agent.pot" -o "$work/short.pot"
  check "a template missing a marked string is caught" bash -c "[ -s '$work/short.pot' ] && ! msgcmp --use-untranslated '$work/short.pot' '$work/fresh.pot'"
else
  fail "xgettext makes the template" "$(head -5 "$work/xgettext.log")"
fi
for po in "$repo"/po/*.po; do
  check "$(basename "$po") translates every string of the template" msgcmp "$po" "$repo/po/relavoi-agent.pot"
done
[ -f "$repo/po/LINGUAS" ] && check "po/LINGUAS lists every po/*.po" \
  test "$(grep -v '^#' "$repo/po/LINGUAS" | LC_ALL=C sort | tr '\n' ' ')" = \
  "$(cd "$repo/po" && ls -- *.po | sed 's/\.po$//' | LC_ALL=C sort | tr '\n' ' ')"

summary
