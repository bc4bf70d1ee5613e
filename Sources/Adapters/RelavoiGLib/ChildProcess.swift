import CGLib
import FoundationEssentials

/// A child program (the demo's relavoi-sandbox): started with extra
/// environment, its first stdout line that starts with a prefix read
/// (bounded in time), its exit heard on the main loop.
@MainActor
public final class ChildProcess {
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: Int32
    private let stdoutFD: Int32
    private var watch: guint = 0
    private var exited = false

    /// Starts `argv[0]` (a path) with `environment` added to this process's
    /// environment, less `ChildEnvironment.withheld`.
    public init(argv: [String], environment: [String: String]) throws(SpawnError) {
        var env = ProcessInfo.processInfo.environment
        for name in ChildEnvironment.withheld { env[name] = nil }
        for (key, value) in environment { env[key] = value }
        let envStrings = env.map { "\($0.key)=\($0.value)" }
        var childPID: GPid = 0
        var outFD: gint = -1
        var error: UnsafeMutablePointer<GError>?
        let spawned = Self.withCStrings(argv) { argvPointer in
            Self.withCStrings(envStrings) { envPointer in
                g_spawn_async_with_pipes(
                    nil, argvPointer, envPointer, G_SPAWN_DO_NOT_REAP_CHILD, nil, nil, &childPID, nil, &outFD, nil,
                    &error)
            }
        }
        guard spawned != 0 else { throw SpawnError(description: "\(argv.first ?? ""): \(GErrorText.take(error))") }
        pid = childPID
        stdoutFD = outFD
    }

    /// Calls `onExit` (on the main loop) when the child ends.
    public func onExit(_ onExit: @escaping @MainActor () -> Void) {
        final class Box {
            let body: @MainActor () -> Void
            init(_ body: @escaping @MainActor () -> Void) { self.body = body }
        }
        let callback: GChildWatchFunc = { pid, _, data in
            g_spawn_close_pid(pid)
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.body() }
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Box>.fromOpaque(data!).release() }
        let box = Box { [weak self] in
            self?.exited = true
            onExit()
        }
        watch = g_child_watch_add_full(
            G_PRIORITY_DEFAULT, pid, callback, Unmanaged.passRetained(box).toOpaque(), destroy)
    }

    /// The rest of the first stdout line that starts with `prefix`; nil when
    /// the child closes its stdout or `timeout` seconds pass first.
    public func readLine(startingWith prefix: String, timeout: Double) -> String? {
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let left = Int32(max(0, (deadline - g_get_monotonic_time()) / 1000))
            var poll = GPollFD(fd: stdoutFD, events: gushort(G_IO_IN.rawValue | G_IO_HUP.rawValue), revents: 0)
            guard g_poll(&poll, 1, left) > 0 else { return nil }
            let count = read(stdoutFD, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.hasPrefix(prefix) {
                    discardOutput()
                    return String(line.dropFirst(prefix.count))
                }
            }
        }
    }

    /// Whatever the child writes later is read and dropped on the main loop
    /// (a full pipe would block it), until it closes its end.
    private func discardOutput() {
        let callback: GUnixFDSourceFunc = { fd, _, _ in
            var scratch = [UInt8](repeating: 0, count: 4096)
            guard read(fd, &scratch, scratch.count) > 0 else {
                close(fd)
                return gboolean(0)
            }
            return gboolean(1)
        }
        g_unix_fd_add(stdoutFD, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue), callback, nil)
    }

    /// Asks the child to end (SIGTERM), if it has not.
    public func terminate() {
        guard !exited else { return }
        kill(pid, SIGTERM)
    }

    private static func withCStrings<T>(
        _ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>) -> T
    ) -> T {
        var pointers: [UnsafeMutablePointer<gchar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
