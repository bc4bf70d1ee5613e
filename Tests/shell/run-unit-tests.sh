#!/usr/bin/env bash
# gjs unit tests of the Shell extension's pure part (model.js), for both builds:
# generates the legacy (GNOME 43/44) and ESM (GNOME 45-51) forms into a temporary folder
# with scripts/build-shell-extension.sh and runs Tests/shell/model-test.js on each with
# Debian's gjs, in English and in French (the build's own catalog), Tests/shell/surfaces-test.js
# on the ESM build (what the pill and the lock-screen cards set on each change and tick, on
# stand-in actors), and each build's
# windowLauncher.js against a stand-in window (check-window-launcher.sh). Then checks that the
# builds' metadata together cover GNOME 43 through 51, each version once. Exit 1 when a
# check failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
command -v gjs >/dev/null 2>&1 || { echo "FAIL - gjs is not installed (scripts/install-deps.sh test)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/relavoi-shell-unit.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$repo/scripts/build-shell-extension.sh" --out "$work" legacy esm >/dev/null || { echo "FAIL - the builds are made"; exit 1; }
rc=0
for form in legacy esm; do
  for lang in C.UTF-8 fr_FR.UTF-8; do
    LANG=$lang LC_ALL=$lang LANGUAGE= gjs -m "$repo/Tests/shell/model-test.js" "$form" "$work/$form/relavoi@relavoi.com" \
      >"$work/$form-$lang.out" 2>&1 || rc=1
    grep -v '^ok - ' "$work/$form-$lang.out"
  done
done
# What a change of the calls and a tick set on the pill and the cards, and their one timer.
gjs -m "$repo/Tests/shell/surfaces-test.js" "$work/esm/relavoi@relavoi.com" >"$work/surfaces.out" 2>&1 || rc=1
grep -v '^ok - ' "$work/surfaces.out"
# windowLauncher.js of each build reaches a stand-in Relavoi window (its own private bus).
"$repo/Tests/shell/check-window-launcher.sh" "$work" | grep -v '^[0-9]* passed' || rc=1
# The versions GNOME checks (shell-version) and the domain the extension binds.
/usr/bin/python3 - "$work" <<'PY' || rc=1
import json, sys
work = sys.argv[1]
seen, failed = [], 0
for form in ("legacy", "esm"):
    meta = json.load(open(f"{work}/{form}/relavoi@relavoi.com/metadata.json"))
    seen += meta["shell-version"]
    if meta.get("gettext-domain") != "relavoi-shell":
        print(f"FAIL - {form}: gettext-domain is relavoi-shell, got {meta.get('gettext-domain')!r}"); failed += 1
want = [str(v) for v in range(43, 52)]
if sorted(seen, key=int) != want:
    print(f"FAIL - the builds together declare GNOME {want[0]}-{want[-1]} once each, got {seen}"); failed += 1
else:
    print(f"the builds declare GNOME {', '.join(seen)}")
sys.exit(1 if failed else 0)
PY
exit $rc
