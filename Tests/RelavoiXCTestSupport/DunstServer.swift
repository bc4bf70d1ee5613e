import Foundation
import RelavoiTestSupport
import XCTest

/// dunst, a real notification server, under its own Xvfb display on the
/// test's private session bus. Skips the test where Xvfb or dunst is missing.
public final class DunstServer {
    public let display: String
    private let xvfb: Process
    private let dunst: Process

    /// The repository's dunst settings, the same the bench and the demo use.
    static let configPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/dunstrc").path

    public static func start() throws -> DunstServer {
        for tool in ["/usr/bin/Xvfb", "/usr/bin/dunst", "/usr/bin/dunstctl"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps.sh installs it)")
        }
        return try DunstServer()
    }

    private init() throws {
        var number = 90
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        {
            number += 1
        }
        display = ":\(number)"
        xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = [display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
        xvfb.standardOutput = FileHandle.nullDevice
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        let socket = "/tmp/.X11-unix/X\(number)"
        guard LoopWait.until(timeout: 10, { FileManager.default.fileExists(atPath: socket) }) else {
            xvfb.terminate()
            throw XCTSkip("Xvfb did not start")
        }
        guard FileManager.default.isReadableFile(atPath: Self.configPath) else {
            xvfb.terminate()
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: Self.configPath])
        }
        dunst = Process()
        dunst.executableURL = URL(fileURLWithPath: "/usr/bin/dunst")
        dunst.arguments = ["-config", Self.configPath]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        dunst.environment = environment
        dunst.standardOutput = FileHandle.nullDevice
        dunst.standardError = FileHandle.nullDevice
        try dunst.run()
        guard LoopWait.until(timeout: 10, { self.ctl(["is-paused"]) != nil }) else {
            stop()
            throw XCTSkip("dunst did not take org.freedesktop.Notifications")
        }
    }

    deinit { stop() }

    public func stop() {
        if dunst.isRunning { resume() }
        for process in [dunst, xvfb] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Hangs dunst (SIGSTOP), as a server stuck in its main thread; `resume` lets it go on.
    public func pause() { kill(dunst.processIdentifier, SIGSTOP) }
    public func resume() { kill(dunst.processIdentifier, SIGCONT) }

    /// Notifications on screen now.
    public func displayedCount() -> Int? { ctl(["count", "displayed"]).flatMap { Int($0) } }
    /// Notifications in dunst's history (closed ones it kept).
    public func historyCount() -> Int? { ctl(["count", "history"]).flatMap { Int($0) } }
    /// Closes the topmost notification as a user would (reason 2).
    public func userClose() { _ = ctl(["close"]) }

    /// A PNG of the whole screen, what a person would see.
    public func screenshot(to path: String) -> Bool {
        ToolOutput.of("/usr/bin/import", ["-display", display, "-window", "root", path]) != nil
    }

    private func ctl(_ arguments: [String]) -> String? { ToolOutput.of("/usr/bin/dunstctl", arguments) }
}
