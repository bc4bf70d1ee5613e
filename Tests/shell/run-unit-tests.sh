#!/usr/bin/env bash
# gjs unit tests of the Shell extension's pure part (model.js), for both builds:
# generates the legacy (GNOME 43/44) and ESM (GNOME 45-48) forms into a temporary folder
# with scripts/build-shell-extension.sh and runs Tests/shell/model-test.js on each with
# Debian's gjs. Exit 1 when a check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
command -v gjs >/dev/null 2>&1 || { echo "FAIL - gjs is not installed (scripts/install-deps.sh test)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-shell-unit.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$repo/scripts/build-shell-extension.sh" --out "$work" legacy esm >/dev/null || { echo "FAIL - the builds are made"; exit 1; }
rc=0
for form in legacy esm; do
  gjs -m "$repo/Tests/shell/model-test.js" "$form" "$work/$form/relavoi@relavoi.com" >"$work/$form.out" 2>&1 || rc=1
  grep -v '^ok - ' "$work/$form.out"
done
exit $rc
