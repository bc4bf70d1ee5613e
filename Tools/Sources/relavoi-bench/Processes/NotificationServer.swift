import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// A notification server on the benchmark's private bus: python3-dbusmock's
/// notification daemon (the tests' launcher), or dunst on its own Xvfb display.
final class NotificationServer {
    enum Kind: String, Codable, CaseIterable {
        case dbusmock, dunst
    }

    let kind: Kind
    /// dunst's Xvfb display (`:90`…); nil for dbusmock.
    private(set) var display: String?
    private var children: [Child] = []
    private var mock: MockNotificationServer?

    /// The repository's dunst settings, the same the tests and the demo use
    /// (the bench runs from the source tree).
    static let dunstConfigPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/dunstrc").path

    private init(kind: Kind) { self.kind = kind }

    static func start(_ kind: Kind, logDirectory: String) throws -> NotificationServer {
        guard !BusNames.hasOwner(BusNames.notifications) else {
            throw BenchError("another notification server owns \(BusNames.notifications)")
        }
        let server = NotificationServer(kind: kind)
        do {
            switch kind {
            case .dbusmock:
                do { server.mock = try MockNotificationServer.launch() } catch {
                    throw BenchError("python3-dbusmock: \(error)")
                }
            case .dunst:
                try server.startDunst(logDirectory: logDirectory)
                guard BusNames.wait(for: BusNames.notifications, owned: true, timeout: 15) else {
                    throw BenchError("dunst did not take \(BusNames.notifications) (see \(logDirectory))")
                }
            }
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    private func startDunst(logDirectory: String) throws {
        var number = 90
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        {
            number += 1
        }
        let display = ":\(number)"
        self.display = display
        children.append(
            try Child.spawn(
                "/usr/bin/Xvfb", [display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                output: logDirectory + "/xvfb.log"))
        let socket = "/tmp/.X11-unix/X\(number)"
        let xvfb = children[0]
        LoopWait.until(timeout: 10) { FileManager.default.fileExists(atPath: socket) || !xvfb.isRunning }
        guard xvfb.isRunning, FileManager.default.fileExists(atPath: socket) else {
            throw BenchError("Xvfb did not start (see \(logDirectory)/xvfb.log)")
        }
        guard FileManager.default.isReadableFile(atPath: Self.dunstConfigPath) else {
            throw BenchError("no dunst settings at \(Self.dunstConfigPath)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        children.append(
            try Child.spawn(
                "/usr/bin/dunst", ["-config", Self.dunstConfigPath], environment: environment,
                output: logDirectory + "/dunst.log"))
    }

    /// dunst's process (its memory is the yardstick of the agent's); nil for dbusmock.
    var serverPid: pid_t? { kind == .dunst ? children.last?.pid : nil }

    /// The server's version, for the report.
    var version: String {
        switch kind {
        case .dbusmock: return Self.packageVersion("python3-dbusmock")
        case .dunst: return Self.packageVersion("dunst")
        }
    }

    static func packageVersion(_ package: String) -> String {
        guard let status = ProcFile.read("/var/lib/dpkg/status") else { return "?" }
        var inPackage = false
        for line in status.split(separator: "\n") {
            if line.hasPrefix("Package: ") { inPackage = line == "Package: \(package)" }
            if inPackage, line.hasPrefix("Version: ") { return String(line.dropFirst(9)) }
        }
        return "?"
    }

    func stop() {
        mock?.stop()
        mock = nil
        for child in children.reversed() { child.stop(timeout: 3) }
        children.removeAll()
        _ = BusNames.wait(for: BusNames.notifications, owned: false, timeout: 5)
    }
}
