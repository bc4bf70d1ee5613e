import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// A child process started with posix_spawn and reaped with wait4, so its
/// own CPU time (rusage) is known when it ends.
final class Child {
    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    let name: String
    private(set) var exitStatus: Int32?
    private(set) var usage = rusage()

    private init(pid: pid_t, name: String) {
        self.pid = pid
        self.name = name
    }

    /// Starts `path` with `arguments` (without argv[0]). stdout and stderr go
    /// to `output` (appended) or /dev/null; stdin is /dev/null.
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, output: String? = nil
    ) throws -> Child {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let env = environment ?? ProcessInfo.processInfo.environment
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        return Child(pid: pid, name: (path as NSString).lastPathComponent)
    }

    var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        let result = wait4(pid, &status, WNOHANG, &usage)
        if result == pid || result < 0 {
            exitStatus = status
            return false
        }
        return true
    }

    func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    /// Waits for the exit, turning the GLib loop (in-process servers keep serving).
    @discardableResult
    func wait(timeout: Double) -> Bool {
        LoopWait.until(timeout: timeout) { !self.isRunning }
    }

    /// Blocks until the exit without turning any loop (short-lived tools).
    func waitBlocking() {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        exitStatus = status
    }

    /// SIGTERM, then SIGKILL after `timeout` seconds.
    func stop(timeout: Double = 3) {
        guard isRunning else { return }
        kill(pid, SIGCONT)
        kill(pid, SIGTERM)
        if !wait(timeout: timeout) {
            kill(pid, SIGKILL)
            waitBlocking()
        }
    }

    /// User + system CPU of the exited child, in seconds.
    var cpuSeconds: Double {
        Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
