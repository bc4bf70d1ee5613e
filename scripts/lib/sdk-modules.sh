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
for module in CGLib CNotify CSoup; do
  clang_args+=(-Xcc "-fmodule-map-file=$PWD/Sources/$module/module.modulemap")
done
