#!/usr/bin/env bash
# Runs one of this folder's run scripts inside another Debian root (e.g. a
# Debian 13 debootstrap with xfce4-notifyd 0.9 installed), as root:
#   scripts/desktops/run-in-root.sh ROOT run-xfce.sh [ARGS...]
# In a private mount namespace it binds /proc, /sys, /dev and /tmp (so the
# bus socket and the X display are shared with this host: clients run here)
# and this folder read-only at the same path, then chroots. BIND="DIR ..." binds
# more host folders read-only at the same paths. This repository's icons/ is
# always bound (the agent run from the build tree names its badge by a file
# path there, and run-cinnamon.sh puts it into the session's icon theme).
set -euo pipefail
root=${1:?usage: $0 ROOT SCRIPT [ARGS...]}
script=${2:?usage: $0 ROOT SCRIPT [ARGS...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
icons=$(cd "$here/../.." && pwd)/icons
exec unshare -m --propagation private bash -c '
    set -e
    root=$1 here=$2 icons=$3
    shift 3
    for d in proc sys dev tmp; do mount --rbind "/$d" "$root/$d"; done
    mkdir -p "$root$here"
    mount --bind "$here" "$root$here"
    mount -o remount,bind,ro "$root$here"
    for b in $icons ${BIND:-}; do
        [ -d "$b" ] || continue
        mkdir -p "$root$b"
        mount --bind "$b" "$root$b"
        mount -o remount,bind,ro "$root$b"
    done
    exec chroot "$root" env RUN_DIR="${RUN_DIR:-}" PANEL="${PANEL:-1}" LOG="${LOG:-1}" "$here/$0" "$@"
' "$script" "$root" "$here" "$icons" "$@"
