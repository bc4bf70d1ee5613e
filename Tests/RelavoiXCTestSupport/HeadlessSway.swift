import Foundation
import RelavoiTestSupport
import XCTest

/// A headless sway (wlroots, pixman) for the wlroots desktops' notification
/// servers. sway will not run as root, so it runs in a user namespace as uid
/// 1000; the servers run beside it as the test does, since the test's bus
/// takes only the test's user. Skips the test where sway or grim is missing.
public final class HeadlessSway {
    /// The test's environment with this sway's Wayland display and runtime folder.
    public let environment: [String: String]
    private let runtimeDirectory: URL
    private let sway: Process
    private var clients: [Process] = []

    public init() throws {
        for tool in ["/usr/bin/sway", "/usr/bin/grim", "/usr/bin/unshare"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps.sh installs it)")
        }
        runtimeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relavoi-sway-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let configHome = runtimeDirectory.appendingPathComponent("config")
        try FileManager.default.createDirectory(
            at: configHome, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        // No user's config: the servers' defaults, sway's empty config.
        environment["XDG_CONFIG_HOME"] = configHome.path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")

        sway = Process()
        sway.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        sway.arguments = ["--user", "--map-user=1000", "--map-group=1000", "/usr/bin/sway", "-c", "/dev/null"]
        var swayEnvironment = environment
        swayEnvironment["WLR_BACKENDS"] = "headless"
        swayEnvironment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        swayEnvironment["WLR_RENDERER"] = "pixman"
        sway.environment = swayEnvironment
        sway.standardOutput = FileHandle.nullDevice
        sway.standardError = FileHandle.nullDevice
        try sway.run()

        var socket: String?
        let directory = runtimeDirectory
        let found = LoopWait.until(timeout: 15) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            socket = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            return socket != nil
        }
        guard found, let socket else {
            sway.terminate()
            sway.waitUntilExit()
            try? FileManager.default.removeItem(at: runtimeDirectory)
            throw XCTSkip("sway did not start")
        }
        environment["WAYLAND_DISPLAY"] = socket
        self.environment = environment
    }

    deinit { stop() }

    /// Starts `program` on this display (stopped with sway), with `extraEnvironment`;
    /// skips where it is missing.
    public func run(
        _ program: String, _ arguments: [String] = [], extraEnvironment: [String: String] = [:]
    ) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw XCTSkip("\(program) is missing (scripts/install-deps.sh installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        clients.append(process)
        return process
    }

    public func stop() {
        for process in clients.reversed() + [sway] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    /// A PNG of the whole output, what a person would see.
    public func screenshot(to path: String) -> Bool {
        ToolOutput.of("/usr/bin/grim", [path], environment: environment) != nil
    }
}
