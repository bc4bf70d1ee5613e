import FoundationEssentials
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiMachines

/// The media players' side of the session bus (MPRIS 2): who they are, what they play,
/// `Pause` and `Play`. Every call is asynchronous and bounded, so a player that hangs
/// never holds up the loop; a player is addressed by its unique name, so a call never
/// reaches another process that took the name since.
@MainActor
enum MPRISBus {
    static let namePrefix = "org.mpris.MediaPlayer2."
    static let path = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// A player answers in milliseconds; one that takes longer is treated as hung.
    static let timeoutMilliseconds: Int32 = 2000

    typealias Player = MediaPauseMachine.Player

    /// Each player on the bus now, with its `PlaybackStatus` (nil: it did not answer);
    /// `found` runs once per player, as its answers come.
    static func eachPlayer(
        on bus: BusConnection, found: @escaping @MainActor (Player, MediaPauseMachine.PlaybackStatus?) -> Void
    ) {
        busCall(bus, "ListNames") { reply in
            guard case .array(_, let names)? = reply?.children?.first else { return }
            for case .string(let name) in names where name.hasPrefix(namePrefix) {
                busCall(bus, "GetNameOwner", [.string(name)]) { reply in
                    guard let owner = reply?.children?.first?.stringValue else { return }
                    let player = Player(busName: name, owner: owner)
                    playbackStatus(of: player, on: bus) { found(player, $0) }
                }
            }
        }
    }

    static func playbackStatus(
        of player: Player, on bus: BusConnection,
        completion: @escaping @MainActor (MediaPauseMachine.PlaybackStatus?) -> Void
    ) {
        bus.callAsync(
            destination: player.owner, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(playerInterface), .string("PlaybackStatus")], autoStart: false,
            timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            guard case .success(let reply) = result, case .variant(.string(let text))? = reply.children?.first else {
                if case .failure(let error) = result { Log.debug("media: \(player) has no status (\(error))") }
                completion(nil)
                return
            }
            completion(MediaPauseMachine.PlaybackStatus(rawValue: text))
        }
    }

    /// `Pause` or `Play`; the completion hears the error, if any.
    static func call(
        _ method: String, _ player: Player, on bus: BusConnection,
        completion: @escaping @MainActor (DBusCallError?) -> Void
    ) {
        bus.callAsync(
            destination: player.owner, path: path, interface: playerInterface, method: method, autoStart: false,
            timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(error)
            }
        }
    }

    /// Whether a failed call timed out (the player may still do it) rather than refused.
    static func isTimeout(_ error: DBusCallError) -> Bool {
        // GDBus's own timeout carries no remote name, and the bus says NoReply for a player
        // that never answered; a refusal, or ServiceUnknown (the player is gone), says otherwise.
        error.name == nil || error.name == "org.freedesktop.DBus.Error.NoReply"
            || error.name == "org.freedesktop.DBus.Error.Timeout"
    }

    /// `(s)`-shaped or `(as)`-shaped answers from the bus itself.
    private static func busCall(
        _ bus: BusConnection, _ method: String, _ arguments: [DBusValue] = [],
        completion: @escaping @MainActor (DBusValue?) -> Void
    ) {
        bus.callAsync(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: method, arguments: arguments, timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            if case .failure(let error) = result { Log.debug("media: \(method) failed (\(error))") }
            completion(try? result.get())
        }
    }
}
