import Foundation
import RelavoiCore

/// At most `limit` requests per key in any sliding 60-second window.
struct RateLimiter {
    var limit: Int
    var window: TimeInterval = 60
    private var history: [String: [Date]] = [:]

    init(limit: Int) { self.limit = limit }

    /// nil when allowed (and counted); otherwise seconds until a slot frees up.
    mutating func admit(key: String, now: Date) -> TimeInterval? {
        guard limit > 0 else { return nil }
        var times = (history[key] ?? []).filter { now.timeIntervalSince($0) < window }
        if times.count >= limit {
            history[key] = times
            return max(1, window - now.timeIntervalSince(times[0]))
        }
        times.append(now)
        history[key] = times
        if history.count > 1024 {
            history = history.filter { $0.value.contains { now.timeIntervalSince($0) < window } }
        }
        return nil
    }
}
