#!/usr/bin/env bash
# make docs: RelavoiSDK's DocC archive, from the built module's symbol graph
# (swift-symbolgraph-extract, with the types the SDK re-exports) and the
# articles in docs/RelavoiSDK.docc, by the toolchain's docc. Needs make build.
# Writes .build/docs/RelavoiSDK.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=docs . scripts/lib/sdk-modules.sh
out=.build/docs
graphs=$out/symbol-graphs
archive=$out/RelavoiSDK.doccarchive
rm -rf "$graphs" "$archive"
mkdir -p "$graphs"

swift-symbolgraph-extract -module-name RelavoiSDK -I "$modules" -target "$(uname -m)-unknown-linux-gnu" \
  -minimum-access-level public -experimental-allowed-reexported-modules=RelavoiCore,RelavoiStream,RelavoiGLib \
  -output-dir "$graphs" "${clang_args[@]}"

# Every public symbol has a doc comment.
/usr/bin/python3 - "$graphs/RelavoiSDK.symbols.json" <<'PY'
import json, sys
path = sys.argv[1]
with open(path) as f:
    graph = json.load(f)
undocumented = [".".join(s["pathComponents"]) for s in graph["symbols"] if not s.get("docComment")]
if undocumented:
    sys.exit("docs: public symbols without a doc comment: " + ", ".join(sorted(undocumented)))
PY

docc convert docs/RelavoiSDK.docc --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name RelavoiSDK --fallback-bundle-identifier com.relavoi.RelavoiSDK \
  --output-path "$archive" --warnings-as-errors
echo "docs: $PWD/$archive"
