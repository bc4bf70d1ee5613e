import CGLib
import FoundationEssentials

/// Runs a program to its end without blocking the loop (`systemctl --user start …`):
/// `completion` hears its exit status on the main loop, or nil when it could not start.
@MainActor
public enum ProgramRun {
    private final class Box {
        let completion: @MainActor (Int32?) -> Void
        init(_ completion: @escaping @MainActor (Int32?) -> Void) { self.completion = completion }
    }

    public static func run(_ argv: [String], completion: @escaping @MainActor (Int32?) -> Void) {
        var pid: GPid = 0
        var error: UnsafeMutablePointer<GError>?
        var pointers = argv.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let flags = GSpawnFlags(
            rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_DO_NOT_REAP_CHILD.rawValue
                | G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_STDERR_TO_DEV_NULL.rawValue)
        guard g_spawn_async(nil, &pointers, nil, flags, nil, nil, &pid, &error) != 0 else {
            Log.debug("cannot run \(argv.first ?? ""): \(GErrorText.take(error))")
            completion(nil)
            return
        }
        let watch: GChildWatchFunc = { pid, status, data in
            g_spawn_close_pid(pid)
            var error: UnsafeMutablePointer<GError>?
            let code: Int32 = g_spawn_check_wait_status(status, &error) != 0 ? 0 : (error?.pointee.code ?? 1)
            if error != nil { g_error_free(error) }
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated { Unmanaged<Box>.fromOpaque(data!).takeRetainedValue().completion(code) }
        }
        g_child_watch_add(pid, watch, Unmanaged.passRetained(Box(completion)).toOpaque())
    }

    /// Seconds since this process started (from `/proc/self/stat` and the boot clock).
    public static func secondsSinceProcessStart() -> Double? {
        guard let stat = ProcFile.read("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command's ")": state is field 3, starttime field 22.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let boot = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return boot - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
