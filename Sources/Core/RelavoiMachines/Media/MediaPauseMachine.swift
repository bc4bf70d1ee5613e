import FoundationEssentials
import RelavoiCore

/// Which media players (MPRIS) the agent pauses for calls, and which it plays again, as a
/// pure state machine. `MediaPauseDriver` lists the players, reads and calls them, and
/// tells this what they answered; no I/O here.
///
/// The quiet begins with the first call that counts (per `pause-media`) among the calls
/// the person is shown, and ends with the last one. At its start every player then
/// `Playing` is paused, once; at its end exactly those are played again, and only when
/// they still read `Paused` and are the same process on the bus. A player the person
/// touches meanwhile (plays, stops) is theirs again, and one that appears during the quiet
/// is never touched. Nothing outlives the process: after a crash the next start holds no
/// player and leaves them all alone.
public struct MediaPauseMachine: Sendable {
    /// One player: its well-known name and the unique name of the process that owned it
    /// when it was read. A player that quit and came back is another player.
    public struct Player: Hashable, Comparable, Sendable, CustomStringConvertible {
        public var busName: String
        public var owner: String

        public init(busName: String, owner: String) {
            self.busName = busName
            self.owner = owner
        }

        public var description: String { "\(busName) (\(owner))" }

        public static func < (a: Player, b: Player) -> Bool { (a.busName, a.owner) < (b.busName, b.owner) }
    }

    /// MPRIS `PlaybackStatus`.
    public enum PlaybackStatus: String, Equatable, Sendable {
        case playing = "Playing"
        case paused = "Paused"
        case stopped = "Stopped"
    }

    /// How a player answered `Pause`.
    public enum PauseOutcome: Equatable, Sendable {
        case paused
        /// An error: it did not pause (it cannot, or it is not a player after all).
        case refused
        /// No answer in time: it may still pause late, so it is played again only if it
        /// reads `Paused` at the end.
        case noAnswer
    }

    public enum Action: Equatable, Sendable {
        /// List the players on the bus and read each one's `PlaybackStatus`; answer each
        /// with `playerRead(_:status:survey:)` carrying this number.
        case survey(Int)
        /// Call `Pause`; answer with `pauseAnswered`.
        case pause(Player)
        /// Read `PlaybackStatus` before playing it again; answer with `statusBeforePlay`.
        case readBeforePlay(Player)
        /// Call `Play`; answer with `playAnswered`.
        case play(Player)
    }

    /// Where a player the agent holds stands.
    enum Hold: Equatable, Sendable {
        case pausing
        case paused
        case unsure
        case checking
        case playing
    }

    /// `off` also when banners are off: a call the person is not shown pauses nothing.
    public let mode: MediaPauseMode
    /// A call that counts is under way.
    public private(set) var quiet = false
    private(set) var held: [Player: Hold] = [:]
    private var survey = 0
    private var stopped = false

    public init(mode: MediaPauseMode, bannersEnabled: Bool) {
        self.mode = bannersEnabled ? mode : .off
    }

    /// Nothing paused by the agent is left, nor any call to a player under way.
    public var isSettled: Bool { held.isEmpty }
    /// Players' status changes and disappearances matter now (the driver listens only then).
    public var followsPlayers: Bool { quiet || !held.isEmpty }
    /// The players the agent paused, or is pausing, or is playing again.
    public var heldPlayers: [Player] { held.keys.sorted() }

    /// The calls the person is shown changed: the quiet begins or ends.
    public mutating func callsChanged(_ calls: CallPhaseCounts) -> [Action] {
        let wanted: Bool
        switch mode {
        case .ringing: wanted = calls.ringing + calls.answered > 0
        case .answered: wanted = calls.answered > 0
        case .off: wanted = false
        }
        guard !stopped, wanted != quiet else { return [] }
        quiet = wanted
        if quiet {
            survey += 1
            return [.survey(survey)]
        }
        return resumeHeld()
    }

    /// One player's status, read by the survey `survey`: one that plays is paused, once.
    public mutating func playerRead(_ player: Player, status: PlaybackStatus?, survey: Int) -> [Action] {
        guard quiet, survey == self.survey, status == .playing, held[player] == nil else { return [] }
        held[player] = .pausing
        return [.pause(player)]
    }

    public mutating func pauseAnswered(_ player: Player, _ outcome: PauseOutcome) -> [Action] {
        guard held[player] == .pausing else { return [] }
        switch outcome {
        case .refused:
            held[player] = nil
            return []
        case .paused: held[player] = .paused
        case .noAnswer: held[player] = .unsure
        }
        // The call ended while the pause was under way.
        return quiet ? [] : check(player)
    }

    /// A player's `PlaybackStatus` changed (nil: it said so without the value). Anything but
    /// `Paused` after the agent's pause was answered is the person's doing: it is theirs.
    public mutating func statusChanged(owner: String, to status: PlaybackStatus?) {
        guard let status, status != .paused else { return }
        for (player, hold) in held where player.owner == owner {
            switch hold {
            case .paused, .unsure, .checking: held[player] = nil
            // Its own answer to the agent's call is on the way.
            case .pausing, .playing: break
            }
        }
    }

    /// The player's name lost this owner: it quit, or crashed. Nothing to play again.
    public mutating func playerVanished(_ player: Player) {
        held[player] = nil
    }

    /// What the player read just before it would be played again.
    public mutating func statusBeforePlay(_ player: Player, _ status: PlaybackStatus?) -> [Action] {
        guard held[player] == .checking else { return [] }
        guard status == .paused else {
            held[player] = nil
            return []
        }
        if quiet {
            // Another call began meanwhile: it stays paused for that one.
            held[player] = .paused
            return []
        }
        held[player] = .playing
        return [.play(player)]
    }

    /// `Play` answered (or failed, or timed out): the player is not the agent's any more,
    /// unless a call began meanwhile, which pauses it again.
    public mutating func playAnswered(_ player: Player) -> [Action] {
        guard held[player] == .playing else { return [] }
        guard quiet else {
            held[player] = nil
            return []
        }
        held[player] = .pausing
        return [.pause(player)]
    }

    /// The agent exits: what it paused plays again now, whatever the calls.
    public mutating func stop() -> [Action] {
        guard !stopped else { return [] }
        stopped = true
        quiet = false
        return resumeHeld()
    }

    private mutating func resumeHeld() -> [Action] {
        heldPlayers.flatMap { check($0) }
    }

    /// Reads a paused player before it plays again; one still being paused or played waits
    /// for that answer.
    private mutating func check(_ player: Player) -> [Action] {
        guard held[player] == .paused || held[player] == .unsure else { return [] }
        held[player] = .checking
        return [.readBeforePlay(player)]
    }
}
