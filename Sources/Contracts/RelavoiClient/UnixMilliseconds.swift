import FoundationEssentials

/// A moment as the agent's D-Bus properties carry it (`x`, unix milliseconds), 0 when not known.
package enum UnixMilliseconds {
    package static func of(_ date: Date?) -> Int64 {
        guard let date, date.timeIntervalSince1970.isFinite, date.timeIntervalSince1970 > 0 else { return 0 }
        return Int64(min(date.timeIntervalSince1970 * 1000, 9e15).rounded())
    }
}
