#!/usr/bin/env bash
# Compiles po/<lang>.po into OUT/<lang>/LC_MESSAGES/relavoi-agent.mo (msgfmt
# --check), and the translated desktop entry when asked:
#
#   scripts/compile-translations.sh [--build-tree] OUT
#   scripts/compile-translations.sh --desktop-entry OUT.desktop [TEMPLATE.desktop]
#   scripts/compile-translations.sh --metainfo OUT.metainfo.xml
#
# --build-tree leaves OUT/relavoi-agent.build-tree: an agent run from the
# build tree (.build/<triple>/<config>/relavoi-agent) reads its catalogs
# from .build/locale when that is there (Sources/Adapters/RelavoiI18n).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v msgfmt >/dev/null || { echo "compile-translations: msgfmt is missing (scripts/install-deps.sh build)" >&2; exit 1; }

if [ "${1:-}" = --desktop-entry ]; then
  # Name, GenericName, Comment and Keywords in every language of po/ (the agent's entry by default).
  msgfmt --desktop --template="${3:-$repo/desktop/com.relavoi.Agent.desktop}" -d "$repo/po" -o "$2"
  exit 0
fi
if [ "${1:-}" = --metainfo ]; then
  # The window's AppStream summary and description, xml:lang per language (appstream's ITS rules).
  msgfmt --xml --template="$repo/desktop/com.relavoi.Agent.Settings.metainfo.xml" -d "$repo/po" -o "$2"
  exit 0
fi
marker=0
if [ "${1:-}" = --build-tree ]; then marker=1; shift; fi
out=${1:?usage: compile-translations.sh [--build-tree] OUT}
for po in "$repo"/po/*.po; do
  lang=$(basename "$po" .po)
  mkdir -p "$out/$lang/LC_MESSAGES"
  msgfmt --check -o "$out/$lang/LC_MESSAGES/relavoi-agent.mo.tmp" "$po"
  mv "$out/$lang/LC_MESSAGES/relavoi-agent.mo.tmp" "$out/$lang/LC_MESSAGES/relavoi-agent.mo"
done
[ "$marker" = 0 ] || touch "$out/relavoi-agent.build-tree"
