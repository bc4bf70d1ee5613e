import Foundation
import RelavoiTestSupport
import XCTest

/// mako, the notification server of sway and the other wlroots desktops, on
/// a headless sway of its own and the test's private session bus. Skips the
/// test where sway, mako, grim or busctl is missing.
public final class MakoServer {
    /// One notification as mako holds it (`fr.emersion.Mako.ListNotifications`).
    public struct Shown: Equatable {
        public let id: UInt32
        public let summary: String
        public let body: String
    }

    private let sway: HeadlessSway

    public static func start() throws -> MakoServer {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/busctl") else {
            throw XCTSkip("/usr/bin/busctl is missing (scripts/install-deps.sh installs it)")
        }
        return try MakoServer()
    }

    private init() throws {
        sway = try HeadlessSway()
        _ = try sway.run("/usr/bin/mako")
        guard LoopWait.until(timeout: 15, { self.shown() != nil }) else {
            sway.stop()
            throw XCTSkip("mako did not take org.freedesktop.Notifications")
        }
    }

    public func stop() { sway.stop() }

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
    public func screenshot(to path: String) -> Bool { sway.screenshot(to: path) }

    private static let makoObject = ["org.freedesktop.Notifications", "/fr/emersion/Mako", "fr.emersion.Mako"]
}
