import Foundation
import RelavoiTestSupport
import XCTest

/// mako, the notification server of sway and the other wlroots desktops,
/// on a headless sway of its own and the test's private session bus.
/// sway will not run as root, so it runs in a user namespace as uid 1000
/// (mako itself runs as the test does: the bus takes only the test's user).
/// Skips the test where sway, mako, grim or busctl is missing.
public final class MakoServer {
    /// One notification as mako holds it (`fr.emersion.Mako.ListNotifications`).
    public struct Shown: Equatable {
        public let id: UInt32
        public let summary: String
        public let body: String
    }

    private let runtimeDirectory: URL
    private let sway: Process
    private let mako: Process
    private var waylandEnvironment: [String: String] = [:]

    public static func start() throws -> MakoServer {
        for tool in ["/usr/bin/sway", "/usr/bin/mako", "/usr/bin/grim", "/usr/bin/busctl", "/usr/bin/unshare"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps.sh installs it)")
        }
        return try MakoServer()
    }

    private init() throws {
        runtimeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relavoi-mako-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(
            at: runtimeDirectory.appendingPathComponent("config"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        // No user's config: mako's defaults (no timeout), sway's empty config.
        environment["XDG_CONFIG_HOME"] = runtimeDirectory.appendingPathComponent("config").path
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
        mako = Process()
        try sway.run()

        var socket: String?
        let found = LoopWait.until(timeout: 15) {
            socket = Self.waylandSocket(in: self.runtimeDirectory)
            return socket != nil
        }
        guard found, let socket else {
            stop()
            throw XCTSkip("sway did not start")
        }
        environment["WAYLAND_DISPLAY"] = socket
        waylandEnvironment = environment

        mako.executableURL = URL(fileURLWithPath: "/usr/bin/mako")
        mako.environment = environment
        mako.standardOutput = FileHandle.nullDevice
        mako.standardError = FileHandle.nullDevice
        try mako.run()
        guard LoopWait.until(timeout: 15, { self.shown() != nil }) else {
            stop()
            throw XCTSkip("mako did not take org.freedesktop.Notifications")
        }
    }

    deinit { stop() }

    public func stop() {
        for process in [mako, sway] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    /// What mako shows now, newest first; nil when it cannot be asked.
    public func shown() -> [Shown]? {
        guard
            let text = ToolOutput.of(
                "/usr/bin/busctl", ["-j", "--user", "call"] + Self.makoObject + ["ListNotifications"]),
            let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let data = json["data"] as? [[[String: [String: Any]]]], let list = data.first
        else { return nil }
        return list.compactMap { entry in
            guard let id = entry["id"]?["data"] as? Int else { return nil }
            return Shown(
                id: UInt32(id), summary: (entry["summary"]?["data"] as? String) ?? "",
                body: (entry["body"]?["data"] as? String) ?? "")
        }
    }

    /// Dismisses a notification as a person does (`makoctl dismiss -n ID`: reason 2).
    public func dismiss(id: UInt32) {
        _ = ToolOutput.of(
            "/usr/bin/busctl", ["--user", "call"] + Self.makoObject + ["DismissNotification", "ub", "\(id)", "false"])
    }

    /// A PNG of the whole output, what a person would see.
    public func screenshot(to path: String) -> Bool {
        ToolOutput.of("/usr/bin/grim", [path], environment: waylandEnvironment) != nil
    }

    private static let makoObject = ["org.freedesktop.Notifications", "/fr/emersion/Mako", "fr.emersion.Mako"]

    private static func waylandSocket(in directory: URL) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
    }
}
