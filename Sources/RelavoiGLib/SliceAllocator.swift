import CGLib
import Glibc

/// GLib before 2.76 (Debian 12 has 2.74) carves its small blocks (GVariants,
/// hash-table nodes, list links) from slab pages of 512 and 1,024 bytes that
/// go back to malloc only once every block on them is free. In an agent that
/// runs for days those pages only grew (docs/hardening.md: about 0.3 MiB an
/// hour of the soak's mix); GLib 2.76 dropped the slab for plain malloc.
/// GLib reads `G_SLICE` once, in its own constructor before `main`, so the
/// only way to plain malloc on an older GLib is to start again with it set.
public enum SliceAllocator {
    /// Whether this GLib has the slab and nobody chose a `G_SLICE` setting:
    /// an empty one counts as none, as GLib reads it so too.
    static var startsAgainWithPlainMalloc: Bool {
        guard glib_check_version(2, 76, 0) != nil else { return false }
        guard let chosen = getenv("G_SLICE") else { return true }
        return chosen.pointee == 0
    }

    /// Runs this program again (same process, same arguments) with
    /// `G_SLICE=always-malloc` when `startsAgainWithPlainMalloc`; returns
    /// only when it did not, or when exec failed (logged: the agent goes on
    /// with the slab).
    public static func startAgainWithPlainMallocIfNeeded() {
        guard startsAgainWithPlainMalloc else { return }
        setenv("G_SLICE", "always-malloc", 1)
        let reason = RunningExecutable.startAgain(CommandLine.arguments)
        unsetenv("G_SLICE")
        Log.warning("cannot start again without GLib's slice allocator (\(reason)); going on with it")
    }
}
