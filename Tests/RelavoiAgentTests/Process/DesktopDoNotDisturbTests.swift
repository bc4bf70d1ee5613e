import Foundation
import RelavoiCore
import RelavoiSandboxKit
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// The desktops' own Do Not Disturb switches (`DoNotDisturbSwitch`), each read
/// where the desktop keeps it: Cinnamon's setting, xfce4-notifyd's property in
/// a real xfconfd, SwayNotificationCenter's own, in a real swaync. Once it is
/// on, ringing is quiet, or breaks through at critical urgency with
/// `ring-through-dnd` (as on GNOME and Plasma).
final class DesktopDoNotDisturbTests: XCTestCase {
    /// Cinnamon's `display-notifications`, through the keyfile settings
    /// backend (a file the agent's GLib watches, as it watches dconf).
    func testCinnamonsSwitchIsFollowed() throws {
        let schema = "/usr/share/glib-2.0/schemas/org.cinnamon.desktop.notifications.gschema.xml"
        guard FileManager.default.fileExists(atPath: schema) else {
            throw XCTSkip("Cinnamon's settings schema is missing (scripts/install-deps.sh installs it)")
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-dnd-\(UUID().uuidString)")
        let keyfile = home.appendingPathComponent("glib-2.0/settings/keyfile")
        try FileManager.default.createDirectory(
            at: keyfile.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        func write(displayNotifications: Bool) throws {
            try "[org/cinnamon/desktop/notifications]\ndisplay-notifications=\(displayNotifications)\n".write(
                to: keyfile, atomically: true, encoding: .utf8)
        }
        try write(displayNotifications: true)
        try MainActor.assumeIsolated {
            let h = try AgentHarness.onCinnamon(
                config: "ring-through-dnd = true", environment: ["GSETTINGS_BACKEND": "keyfile"], configHome: home)
            defer { h.stop() }
            XCTAssertFalse(h.agent.log.contains("do not disturb is on"), h.agent.log)

            try write(displayNotifications: false)
            h.waitForLog("do not disturb is on")
            Self.ringsAtCriticalUrgency(h, session: "ses_cin")

            try write(displayNotifications: true)
            h.waitForLog("do not disturb is off")
        }
    }

    /// xfce4-notifyd's `/do-not-disturb`, in a real xfconfd: already on when
    /// the agent starts, then turned off and on by `xfconf-query`.
    func testXfceSwitchIsFollowedInXfconf() throws {
        let daemon = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
        for tool in [daemon, "/usr/bin/xfconf-query"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps.sh installs it)")
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-xfconf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = home.path
        let xfconfd = Process()
        xfconfd.executableURL = URL(fileURLWithPath: daemon)
        xfconfd.environment = environment
        xfconfd.standardOutput = FileHandle.nullDevice
        xfconfd.standardError = FileHandle.nullDevice
        try xfconfd.run()
        defer {
            xfconfd.terminate()
            xfconfd.waitUntilExit()
        }
        func setSwitch(_ on: Bool) -> Bool {
            ToolOutput.of(
                "/usr/bin/xfconf-query",
                ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", on ? "true" : "false"],
                environment: environment) != nil
        }
        XCTAssertTrue(LoopWait.until(timeout: 15) { setSwitch(true) }, "xfconfd took the property")
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: "ring-through-dnd = true",
                prepareServer: { $0.pretend(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3") })
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.waitForLog("do not disturb is on")
            Self.ringsAtCriticalUrgency(h, session: "ses_xfce")

            XCTAssertTrue(setSwitch(false))
            h.waitForLog("do not disturb is off")
            XCTAssertTrue(setSwitch(true))
            h.waitForLog("do not disturb is on", count: 2)

            // Another property of the channel is not the switch (a handler that took it
            // would turn it off here, and on again with the next line); removing the
            // switch turns it off. Signals come in order: the last "off" follows the rest.
            XCTAssertNotNil(
                ToolOutput.of(
                    "/usr/bin/xfconf-query",
                    ["-c", "xfce4-notifyd", "-p", "/notification-log", "-n", "-t", "bool", "-s", "false"],
                    environment: environment))
            XCTAssertTrue(setSwitch(true))
            XCTAssertNotNil(
                ToolOutput.of(
                    "/usr/bin/xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-r"],
                    environment: environment))
            h.waitForLog("do not disturb is off", count: 2)
            for (state, count) in [("on", 2), ("off", 2)] {
                XCTAssertEqual(
                    h.agent.log.components(separatedBy: "do not disturb is \(state)").count - 1, count,
                    "only the switch's own changes count: \(h.agent.log.suffix(1500))")
            }
        }
    }

    /// SwayNotificationCenter's switch, in a real swaync on a headless sway
    /// (here swaync is the notification server too): on before the agent
    /// starts, then off by its `SetDnd`.
    func testSwayNotificationCentersSwitchIsFollowed() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        // swaync keeps the switch in GSettings; the test's bus has no dconf service to write it.
        _ = try sway.run("/usr/bin/swaync", extraEnvironment: ["GSETTINGS_BACKEND": "memory"])
        func setDnd(_ on: Bool) -> Bool {
            ToolOutput.of(
                "/usr/bin/busctl",
                [
                    "--user", "call", "org.erikreider.swaync.cc", "/org/erikreider/swaync/cc",
                    "org.erikreider.swaync.cc", "SetDnd", "b", on ? "true" : "false",
                ]) != nil
        }
        XCTAssertTrue(LoopWait.until(timeout: 15) { setDnd(true) }, "swaync took its name")
        try MainActor.assumeIsolated {
            let sandbox = SandboxServer()
            try sandbox.start()
            defer { sandbox.stop() }
            let agent = try AgentProcess(arguments: ["--verbose"], environment: sandbox.agentAccountEnvironment)
            try agent.start()
            defer { agent.terminate() }
            XCTAssertTrue(
                agent.waitForLog("notification server: SwayNotificationCenter"), "\(agent.log)\nend of log")
            XCTAssertTrue(agent.waitForLog("do not disturb is on"), agent.log)
            XCTAssertTrue(setDnd(false))
            XCTAssertTrue(agent.waitForLog("do not disturb is off"), agent.log)
        }
    }

    /// With `ring-through-dnd` a call rings at critical urgency, with its sound.
    @MainActor
    private static func ringsAtCriticalUrgency(_ h: AgentHarness, session: String) {
        h.session(session)
        h.send("call.incoming", session, ["proxyNumber": .string("+15550100")])
        let ringing = h.waitForNotify { $0.hints["category"] == "call.incoming" }
        XCTAssertEqual(ringing?.hints["urgency"], "byte 0x02", "ring-through-dnd breaks through at critical urgency")
        XCTAssertEqual(ringing?.hints["sound-name"], "phone-incoming-call")
    }
}
