import Foundation
import RelavoiDBus

/// An MPRIS player as python3-dbusmock plays it on the test's bus, for what a real player
/// cannot be made to do: hang in `Pause`, vanish mid-call, come back as another process.
/// `Pause` and `Play` set `PlaybackStatus` (with `PropertiesChanged`, as players do) and
/// are recorded.
@MainActor
final class StandInMediaPlayer {
    static let interface = "org.mpris.MediaPlayer2.Player"

    private let mock: DBusMockStandIn
    var name: String { mock.name }

    /// - Parameter hangOnPause: seconds `Pause` blocks the whole player before it pauses.
    init(name: String = "org.mpris.MediaPlayer2.standin", status: String, hangOnPause: Int = 0) throws {
        mock = try DBusMockStandIn(name: name, path: "/org/mpris/MediaPlayer2", interface: Self.interface)
        try mock.addProperty("PlaybackStatus", .string(status))
        let set = "self.Set('\(Self.interface)', 'PlaybackStatus', '%@')"
        let hang = hangOnPause > 0 ? "time.sleep(\(hangOnPause)); " : ""
        try mock.addMethod("Pause", code: hang + set.replacingOccurrences(of: "%@", with: "Paused"))
        try mock.addMethod("Play", code: set.replacingOccurrences(of: "%@", with: "Playing"))
    }

    /// The unique name of the process that owns the name now.
    var owner: String? {
        let reply = try? mock.bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "GetNameOwner", arguments: [.string(name)], replyType: "(s)", timeoutMilliseconds: 5000)
        return reply?.children?.first?.stringValue
    }

    var status: String? {
        let reply = try? mock.call(
            "org.freedesktop.DBus.Properties", "Get", [.string(Self.interface), .string("PlaybackStatus")],
            replyType: "(v)")
        guard case .variant(.string(let text))? = reply?.children?.first else { return nil }
        return text
    }

    /// How many times `method` was called (nil: the player did not answer).
    func calls(_ method: String) -> Int? { mock.calls(method)?.count }

    /// The person sets the status (a player's own controls).
    func person(_ status: String) {
        _ = try? mock.call(
            "org.freedesktop.DBus.Properties", "Set",
            [.string(Self.interface), .string("PlaybackStatus"), .variant(.string(status))])
    }

    /// Gone from the bus, as a player that quits or crashes.
    func stop() { mock.stop() }
}
