# What the toolchain's tools (swift-api-digester, swift-symbolgraph-extract)
# need to load RelavoiSDK's built modules; sourced by api-dump.sh and docs.sh
# from the repository's root, after `make build`. The caller names itself in NAME.
# Sets: modules (.build/debug/Modules), clang_args (the C modules the Swift
# modules import, as SwiftPM passes them).
modules=.build/debug/Modules
[ -d "$modules" ] || { echo "${NAME:-sdk}: no $modules (run make build first)" >&2; exit 2; }
export PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-$PWD/.build/pkgconfig}
clang_args=()
for flag in $(pkg-config --cflags gio-unix-2.0 libnotify libsoup-3.0 | sed -e 's/-pthread//g'); do
  clang_args+=(-Xcc "$flag")
done
# Each C module's map wherever its target lives (Sources/C/ holds them).
for module in CGLib CNotify CSoup; do
  for map in "$PWD"/Sources/"$module"/module.modulemap "$PWD"/Sources/*/"$module"/module.modulemap; do
    if [ -f "$map" ]; then clang_args+=(-Xcc "-fmodule-map-file=$map"); fi
  done
done
