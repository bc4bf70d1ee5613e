#!/usr/bin/env bash
# Writes flattened copies of the .pc files the system-library targets name,
# without -pthread (SwiftPM warns on it; Swift links pthread anyway) and
# without Requires (SwiftPM would walk back into the originals).
# Usage: scripts/pkgconfig-shim.sh OUTDIR
set -euo pipefail
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
# gtk4 and libadwaita-1: only the window (relavoi-window) links them; -mfpmath/-msse are
# i386 leftovers in gtk4.pc that clang warns about on other machines.
for pc in gio-unix-2.0 libnotify libsoup-3.0 libsecret-1 dbusmenu-glib-0.4 libadwaita-1; do
  pkg-config --exists "$pc" || continue
  cflags=$(pkg-config --cflags "$pc" | sed -e 's/-pthread//g' -e 's/-Wl,--export-dynamic//g' -e 's/-mfpmath=sse//g' -e 's/-msse2\{0,1\}//g')
  libs=$(pkg-config --libs "$pc" | sed -e 's/-pthread//g' -e 's/-Wl,--export-dynamic//g')
  cat > "$out/$pc.pc.tmp" <<PC
Name: $pc
Description: flattened $pc for SwiftPM
Version: $(pkg-config --modversion "$pc")
Cflags: $cflags
Libs: $libs
PC
  mv "$out/$pc.pc.tmp" "$out/$pc.pc"
done
