#!/usr/bin/env bash
# RelavoiSDK's public API as the toolchain's swift-api-digester sees it: the
# module's own public declarations plus the ones it re-exports (RelavoiEvent,
# JSONValue, RelavoiCallAttributes, DismissPolicy, AppIdentity from RelavoiCore;
# RelavoiConfig, RelavoiError from RelavoiStream; MainLoop from RelavoiGLib). Package-only declarations and imports are left out.
# Needs a debug build (make build).
#   scripts/api-dump.sh FILE     write the dump to FILE
#   scripts/api-dump.sh --check  fail when it differs from api/RelavoiSDK.json
set -euo pipefail
cd "$(dirname "$0")/.."
checked_in=api/RelavoiSDK.json
mode=write
out=${1:?usage: $0 FILE | --check}
if [ "$out" = --check ]; then
  mode=check
  out=.build/api/RelavoiSDK.json
fi
NAME=api-dump . scripts/lib/sdk-modules.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for module in RelavoiSDK RelavoiCore RelavoiStream RelavoiGLib; do
  swift-api-digester -dump-sdk -module "$module" -I "$modules" "${clang_args[@]}" \
    -avoid-location -avoid-tool-args -abort-on-module-fail -o "$work/$module.json"
done

mkdir -p "$(dirname "$out")"
/usr/bin/python3 - "$work" "$out" <<'PY'
import json, sys
work, out = sys.argv[1], sys.argv[2]
reexported = {"RelavoiCore": {"RelavoiEvent", "JSONValue", "RelavoiCallAttributes", "DismissPolicy", "AppIdentity"},
              "RelavoiStream": {"RelavoiConfig", "RelavoiError"},
              "RelavoiGLib": {"MainLoop"}}

def public(node):
    """The node without package-only (isInternal) children, recursively."""
    node = dict(node)
    if "children" in node:
        node["children"] = [public(c) for c in node["children"] if not c.get("isInternal")]
    return node

def load(module):
    with open(f"{work}/{module}.json") as f:
        return json.load(f)["ABIRoot"]

root = load("RelavoiSDK")
decls = [c for c in root["children"] if c.get("kind") != "Import" and not c.get("isInternal")]
for module, names in reexported.items():
    decls += [c for c in load(module)["children"] if c.get("kind") == "TypeDecl" and c.get("name") in names]
root = public(dict(root, children=sorted(decls, key=lambda c: (c.get("moduleName", ""), c.get("usr", "")))))
# An extension of another module's type whose members are all package-only is no API.
root["children"] = [c for c in root["children"] if c.get("children") or c.get("kind") != "TypeDecl"
                    or c.get("moduleName") == "RelavoiSDK" or c.get("name") in reexported.get(c.get("moduleName"), ())]
with open(out, "w") as f:
    json.dump({"ABIRoot": root}, f, indent=1, sort_keys=True)
    f.write("\n")
PY

if [ "$mode" = write ]; then
  echo "api-dump: wrote $out ($(wc -c < "$out") bytes)"
  exit 0
fi
if ! diff -q "$checked_in" "$out" > /dev/null 2>&1; then
  echo "api-dump: RelavoiSDK's public API differs from $checked_in:" >&2
  diff -u "$checked_in" "$out" | grep '"printedName"' | head -40 >&2 || true
  echo "If the change is meant: make api-dump, and commit $checked_in." >&2
  exit 1
fi
echo "api-dump: RelavoiSDK's public API matches $checked_in"
