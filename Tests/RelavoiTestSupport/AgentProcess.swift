import Foundation
import RelavoiGLib

/// The built `relavoi-agent` binary run as a black box, with its own
/// `XDG_CONFIG_HOME` and environment; its output goes to a file the caller
/// reads. The tests, the bench and the soak run the agent through it.
public final class AgentProcess {
    public let process = Process()
    public let configHome: URL
    public let logURL: URL
    /// A configuration directory of its own, removed with it (not one the caller gave).
    private let ownsConfigHome: Bool

    /// Its agent.conf (`relavoi/agent.conf` in `configHome`).
    public var configFile: URL { configHome.appendingPathComponent("relavoi/agent.conf") }

    /// `.build/<config>/relavoi-agent`, next to the test bundle.
    public static var binaryPath: String {
        RunningExecutable.sibling("relavoi-agent")
    }

    /// - Parameters:
    ///   - config: the `[agent]` group's lines of agent.conf (nil: no file).
    ///   - environment: added to (and overriding) the test's environment;
    ///     RELAVOI_* variables of the test's own environment are removed first.
    ///   - executable: another program to run the same way (an app using the SDK).
    ///   - configHome: its `XDG_CONFIG_HOME`, kept afterwards (nil: a temporary one, removed).
    ///   - logURL: where its output is appended (nil: `agent.log` in `configHome`).
    ///   - debugMessages: whether it logs debug messages (`G_MESSAGES_DEBUG=relavoi`);
    ///     without, GLib's debug lines are off, as in a user's session.
    public init(
        executable: String = AgentProcess.binaryPath, arguments: [String] = [], config: String? = nil,
        environment: [String: String] = [:], configHome: URL? = nil, logURL: URL? = nil, debugMessages: Bool = true
    ) throws {
        ownsConfigHome = configHome == nil
        self.configHome =
            configHome
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-agent-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: self.configHome.appendingPathComponent("relavoi"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if let config {
            try "[agent]\n\(config)\n".write(
                to: self.configHome.appendingPathComponent("relavoi/agent.conf"), atomically: true, encoding: .utf8)
        }
        self.logURL = logURL ?? self.configHome.appendingPathComponent("agent.log")
        if !FileManager.default.fileExists(atPath: self.logURL.path) {
            _ = FileManager.default.createFile(atPath: self.logURL.path, contents: nil)
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RELAVOI_") }
        env["XDG_CONFIG_HOME"] = self.configHome.path
        env["G_MESSAGES_DEBUG"] = debugMessages ? "relavoi" : nil
        // As desktop/relavoi-agent.service and the autostart entry start it.
        env["G_SLICE"] = "always-malloc"
        for (key, value) in environment { env[key] = value }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = env
        // One open file for both: GLib writes info and debug to stdout, the rest
        // to stderr, and two handles would each write from offset 0 over the other.
        let log = try FileHandle(forWritingTo: self.logURL)
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if ownsConfigHome { try? FileManager.default.removeItem(at: configHome) }
    }

    public func start() throws { try process.run() }

    public var processIdentifier: pid_t { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    /// Valid once it has exited.
    public var terminationStatus: Int32 { process.terminationStatus }

    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits (turning the GLib loop) until the log holds `text` at least `count` times.
    public func waitForLog(_ text: String, count: Int = 1, timeout: Double = 15) -> Bool {
        LoopWait.until(timeout: timeout) { self.log.components(separatedBy: text).count > count }
    }

    /// Ends it as a session does (SIGTERM) and waits for the exit; nothing
    /// when it is not running.
    public func terminate(timeout: Double = 10) {
        guard process.isRunning else { return }
        signal(SIGTERM)
        _ = waitForExit(timeout: timeout)
    }

    /// Ends it: SIGTERM (a stopped process is continued first), SIGKILL when
    /// it still runs after `timeout`. Returns whether it ended on SIGTERM.
    @discardableResult
    public func stop(timeout: Double = 5) -> Bool {
        guard process.isRunning else { return true }
        signal(SIGCONT)
        signal(SIGTERM)
        if waitForExit(timeout: timeout) != nil { return true }
        signal(SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// Waits (turning the GLib loop, so in-process servers keep serving) for
    /// the exit; nil when it is still running after `timeout`.
    public func waitForExit(timeout: Double = 15) -> Int32? {
        guard LoopWait.until(timeout: timeout, { !self.process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    /// Runs to completion (for commands that exit by themselves).
    public static func run(
        arguments: [String], config: String? = nil, environment: [String: String] = [:], timeout: Double = 15
    ) throws -> (status: Int32?, output: String) {
        let agent = try AgentProcess(arguments: arguments, config: config, environment: environment)
        try agent.start()
        let status = agent.waitForExit(timeout: timeout)
        return (status, agent.log)
    }
}
