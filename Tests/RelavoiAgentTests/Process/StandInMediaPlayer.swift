import Foundation
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// An MPRIS player as python3-dbusmock plays it on the test's bus, for what a real player
/// cannot be made to do: hang in `Pause`, vanish mid-call, come back as another process.
/// `Pause` and `Play` set `PlaybackStatus` (with `PropertiesChanged`, as players do) and
/// are recorded.
@MainActor
final class StandInMediaPlayer {
    static let path = "/org/mpris/MediaPlayer2"
    static let interface = "org.mpris.MediaPlayer2.Player"

    let name: String
    let process = Process()
    private let bus: BusConnection

    /// - Parameter hangOnPause: seconds `Pause` blocks the whole player before it pauses.
    init(name: String = "org.mpris.MediaPlayer2.standin", status: String, hangOnPause: Int = 0) throws {
        self.name = name
        bus = try BusConnection.session()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", name, Self.path, Self.interface]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopWait.until(timeout: 15, { self.bus.nameHasOwner(name) }) else {
            throw XCTSkip("python3-dbusmock did not start")
        }
        try mock("AddProperty", [.string(Self.interface), .string("PlaybackStatus"), .variant(.string(status))])
        let set = "self.Set('\(Self.interface)', 'PlaybackStatus', '%@')"
        let hang = hangOnPause > 0 ? "time.sleep(\(hangOnPause)); " : ""
        try addMethod("Pause", code: hang + set.replacingOccurrences(of: "%@", with: "Paused"))
        try addMethod("Play", code: set.replacingOccurrences(of: "%@", with: "Playing"))
    }

    /// The unique name of the process that owns the name now.
    var owner: String? {
        let reply = try? bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "GetNameOwner", arguments: [.string(name)], replyType: "(s)", timeoutMilliseconds: 5000)
        return reply?.children?.first?.stringValue
    }

    var status: String? {
        let reply = try? bus.call(
            destination: name, path: Self.path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(Self.interface), .string("PlaybackStatus")], replyType: "(v)",
            timeoutMilliseconds: 5000)
        guard case .variant(.string(let text))? = reply?.children?.first else { return nil }
        return text
    }

    /// How many times `method` was called (nil: the player did not answer).
    func calls(_ method: String) -> Int? {
        let reply = try? bus.call(
            destination: name, path: Self.path, interface: "org.freedesktop.DBus.Mock", method: "GetMethodCalls",
            arguments: [.string(method)], replyType: "(a(tav))", timeoutMilliseconds: 5000)
        return reply?.children?.first?.children?.count
    }

    /// The person sets the status (a player's own controls).
    func person(_ status: String) {
        _ = try? bus.call(
            destination: name, path: Self.path, interface: "org.freedesktop.DBus.Properties", method: "Set",
            arguments: [.string(Self.interface), .string("PlaybackStatus"), .variant(.string(status))],
            timeoutMilliseconds: 5000)
    }

    /// Gone from the bus, as a player that quits or crashes.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(self.name) }
    }

    private func addMethod(_ method: String, code: String) throws {
        try mock("AddMethod", [.string(Self.interface), .string(method), .string(""), .string(""), .string(code)])
    }

    private func mock(_ method: String, _ arguments: [DBusValue]) throws {
        _ = try bus.call(
            destination: name, path: Self.path, interface: "org.freedesktop.DBus.Mock", method: method,
            arguments: arguments, timeoutMilliseconds: 5000)
    }
}
