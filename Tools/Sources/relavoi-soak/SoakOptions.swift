import Foundation
import RelavoiCore
import RelavoiMachines
import RelavoiTestSupport

/// What `make soak` runs; from the environment (scripts/soak.sh passes it on).
struct SoakOptions {
    /// The whole run, warm-up and drain included.
    var minutes: Double = 30
    /// Stream reconnects: alternately an abrupt drop and a 4003 close.
    var reconnects: Int?
    /// Notification server restarts (python3-dbusmock stopped and started).
    var serverRestarts: Int?
    /// Mean seconds between new calls (exponentially distributed).
    var callInterval: Double = 4
    /// Sessions without calls per second (`SessionFill`); nil: `defaultSessionRate`.
    var sessionRate: Double?
    var seed: UInt64 = 0x5EED
    var agentPath: String
    var outputDirectory: String

    /// The phases, in seconds: warm-up (connect, a few calls), an idle window
    /// for the start measurement, the mix, then `tail` for the drain and the
    /// idle window of the end measurement.
    static let warmUp = 20.0
    static let idleWindow = 15.0
    static let tail = 35.0
    /// Reconnects closer than this would not let the agent's backoff reset
    /// (`stableConnectionInterval`, 5 s, plus the reconnect itself).
    static let minimumReconnectSpacing = 12.0
    static let minimumRestartSpacing = 20.0
    /// Calls started together 30 s into the mix (the hour's mix had 6 going
    /// at its fifth server restart; a call every 4 s and 2-25 s of talk).
    static let burstCalls = 16
    /// Seconds a notification with a timeout (missed calls, SMS banners,
    /// ended calls) stays before the server closes it as expired: dunst's and
    /// xfce4-notifyd's default; python3-dbusmock keeps every one until closed,
    /// which no server the agent targets does unless the person leaves them
    /// in a tray (GNOME): then the agent holds what the tray shows.
    static let bannerTimeout = 10.0

    init(environment: [String: String], executable: String) throws {
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        agentPath = environment["SOAK_AGENT"] ?? directory.appendingPathComponent("relavoi-agent").path
        outputDirectory = environment["SOAK_OUT"] ?? FileManager.default.currentDirectoryPath + "/out/soak"
        if let text = environment["SOAK_MINUTES"] {
            guard let value = Double(text), value >= 1.5 else {
                throw SoakError("SOAK_MINUTES must be a number of at least 1.5")
            }
            minutes = value
        }
        if let text = environment["SOAK_RECONNECTS"] {
            guard let value = Int(text), value >= 0 else { throw SoakError("SOAK_RECONNECTS must be a count") }
            reconnects = value
        }
        if let text = environment["SOAK_SERVER_RESTARTS"] {
            guard let value = Int(text), value >= 0 else { throw SoakError("SOAK_SERVER_RESTARTS must be a count") }
            serverRestarts = value
        }
        if let text = environment["SOAK_CALL_INTERVAL"] {
            guard let value = Double(text), value >= 0.2 else {
                throw SoakError("SOAK_CALL_INTERVAL must be at least 0.2")
            }
            callInterval = value
        }
        if let text = environment["SOAK_SESSION_RATE"] {
            guard let value = Double(text), value >= 0 else {
                throw SoakError("SOAK_SESSION_RATE must be a number of sessions per second")
            }
            sessionRate = value
        }
        if let text = environment["SOAK_SEED"], let value = UInt64(text) { seed = value }
    }

    var totalSeconds: Double { minutes * 60 }
    /// The scripted mix runs between the warm-up and the drain.
    var mixSeconds: Double { totalSeconds - Self.warmUp - Self.idleWindow - Self.tail }

    /// 50 reconnects and 5 restarts in a 30-minute run; a shorter run gets as
    /// many as fit at the minimum spacing.
    var reconnectCount: Int { reconnects ?? min(50, Int(mixSeconds / Self.minimumReconnectSpacing)) }
    var restartCount: Int { serverRestarts ?? min(5, max(1, Int(mixSeconds / Self.minimumRestartSpacing))) }

    /// The agent's largest bounds: event ids remembered (`EventDeduplicator`)
    /// and sessions remembered (`CallMachine.Settings.capacity`), whose
    /// eviction log (`OldestFirstTable`) holds up to twice that many entries
    /// before it compacts: its buffer is at its bound only after 2 × capacity
    /// sessions.
    static let largestBound = max(2 * CallMachine.Settings().capacity, EventDeduplicator.defaultCapacity)
    /// 1.1 × the largest bound in sessions over the first fifth of the mix (an
    /// hour's run: 12.8/s, its caches full at about 11 minutes), 2 to 40 a second.
    var defaultSessionRate: Double { min(40, max(2, Double(Self.largestBound) * 1.1 / (mixSeconds / 5))) }
    var fillRate: Double { sessionRate ?? defaultSessionRate }
}

struct SoakError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension SplitMix64 {
    /// Exponentially distributed with the given mean.
    mutating func exponential(mean: Double) -> Double {
        -mean * log(1 - Double.random(in: 0..<1, using: &self))
    }
}
