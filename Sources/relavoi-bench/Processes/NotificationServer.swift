import Foundation
import RelavoiGLib
import RelavoiProcFS

/// A notification server on the benchmark's private bus: python3-dbusmock's
/// notification daemon, or dunst on its own Xvfb display.
final class NotificationServer {
    enum Kind: String, Codable, CaseIterable {
        case dbusmock, dunst
    }

    let kind: Kind
    private var children: [Child] = []
    private var files: [String] = []

    private init(kind: Kind) { self.kind = kind }

    static func start(_ kind: Kind, logDirectory: String) throws -> NotificationServer {
        guard !BusNames.hasOwner(BusNames.notifications) else {
            throw BenchError("another notification server owns \(BusNames.notifications)")
        }
        let server = NotificationServer(kind: kind)
        do {
            switch kind {
            case .dbusmock:
                server.children.append(
                    try Child.spawn(
                        "/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon"],
                        output: logDirectory + "/dbusmock.log"))
            case .dunst:
                try server.startDunst(logDirectory: logDirectory)
            }
            guard BusNames.wait(for: BusNames.notifications, owned: true, timeout: 15) else {
                throw BenchError("\(kind.rawValue) did not take \(BusNames.notifications) (see \(logDirectory))")
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
        children.append(
            try Child.spawn(
                "/usr/bin/Xvfb", [display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                output: logDirectory + "/xvfb.log"))
        let socket = "/tmp/.X11-unix/X\(number)"
        let xvfb = children[0]
        MainLoop.iterate(timeout: 10) { FileManager.default.fileExists(atPath: socket) || !xvfb.isRunning }
        guard xvfb.isRunning, FileManager.default.fileExists(atPath: socket) else {
            throw BenchError("Xvfb did not start (see \(logDirectory)/xvfb.log)")
        }
        let config = logDirectory + "/dunstrc"
        try """
        [global]
        width = 400
        origin = top-right
        offset = 10x10
        font = DejaVu Sans 11
        idle_threshold = 0
        show_age_threshold = -1
        markup = full
        """.write(toFile: config, atomically: true, encoding: .utf8)
        files.append(config)
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        children.append(
            try Child.spawn(
                "/usr/bin/dunst", ["-config", config], environment: environment, output: logDirectory + "/dunst.log"))
    }

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
        for child in children.reversed() { child.stop(timeout: 3) }
        children.removeAll()
        _ = BusNames.wait(for: BusNames.notifications, owned: false, timeout: 5)
        for file in files { try? FileManager.default.removeItem(atPath: file) }
    }
}
