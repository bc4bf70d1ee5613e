import Foundation
import RelavoiGLib

/// The built `relavoi-agent` binary run as a black box, with its own
/// `XDG_CONFIG_HOME` and environment. stderr goes to a file the test reads.
public final class AgentProcess {
    public let process = Process()
    public let configHome: URL
    public let logURL: URL

    /// `.build/<config>/relavoi-agent`, next to the test bundle.
    public static var binaryPath: String {
        RunningExecutable.sibling("relavoi-agent")
    }

    /// - Parameters:
    ///   - config: the `[agent]` group's lines of agent.conf (nil: no file).
    ///   - environment: added to (and overriding) the test's environment;
    ///     RELAVOI_* variables of the test's own environment are removed first.
    ///   - executable: another program to run the same way (an app using the SDK).
    public init(
        executable: String = AgentProcess.binaryPath, arguments: [String] = [], config: String? = nil,
        environment: [String: String] = [:]
    ) throws {
        configHome = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relavoi-agent-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: configHome.appendingPathComponent("relavoi"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if let config {
            try "[agent]\n\(config)\n".write(
                to: configHome.appendingPathComponent("relavoi/agent.conf"), atomically: true, encoding: .utf8)
        }
        logURL = configHome.appendingPathComponent("agent.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RELAVOI_") }
        env["XDG_CONFIG_HOME"] = configHome.path
        env["G_MESSAGES_DEBUG"] = "relavoi"
        for (key, value) in environment { env[key] = value }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = env
        // One open file for both: GLib writes info and debug to stdout, the rest
        // to stderr, and two handles would each write from offset 0 over the other.
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: configHome)
    }

    public func start() throws { try process.run() }

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
