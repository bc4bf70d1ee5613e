import CGLib
import FoundationEssentials
import Glibc

/// The agent's own process as the kernel and the allocator see it: resident
/// memory next to what malloc has handed out tells a leak (both grow) from
/// allocator retention (only RSS grows). Under AddressSanitizer malloc's
/// figures read 0 (its allocator replaces malloc).
public enum ProcessFigures {
    public static func current() -> [(name: String, value: Int64)] {
        let heap = mallinfo2()
        return [
            ("rss-bytes", residentBytes()),
            ("heap-in-use-bytes", Int64(clamping: heap.uordblks + heap.hblkhd)),
            ("heap-free-bytes", Int64(clamping: heap.fordblks)),
            ("threads", Int64(entries(of: "/proc/self/task"))),
            ("open-fds", Int64(entries(of: "/proc/self/fd"))),
        ]
    }

    /// `/proc/self/statm`'s second field (pages) in bytes; 0 if unreadable.
    private static func residentBytes() -> Int64 {
        guard let text = ProcFile.read("/proc/self/statm") else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int64(fields[1]) else { return 0 }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func entries(of directory: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? 0
    }
}
