import Foundation

/// CLOCK_MONOTONIC in nanoseconds: the same clock in every process, so a
/// time taken here and one taken on another thread or in another process compare.
enum Clock {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func milliseconds(_ from: UInt64, _ to: UInt64) -> Double {
        to >= from ? Double(to - from) / 1e6 : -Double(from - to) / 1e6
    }

    static func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }
}
