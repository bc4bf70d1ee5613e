import Foundation

/// The soak's memory verdict: the agent's private memory (RssAnon) and
/// malloc's bytes in use must stay flat once its bounded caches are full.
/// Before that they grow by design (each cache takes entries up to its
/// bound), so the verdict starts at the first sample `settle` seconds after
/// they are; VmRSS (mostly file pages the kernel may drop) is only reported.
struct MemoryVerdict {
    struct Limit {
        let name: String
        /// Growth allowed from the baseline to the end.
        let allowanceKiB: Int
        /// The least-squares slope allowed over the samples from the baseline on.
        let trendMiBPerHour: Double
    }

    /// 512 KiB is under what a leak of 1 KiB per call (about 700 calls after
    /// an hour's caches fill) or 32 B per quiet session (18,000) leaves behind;
    /// it holds what the calls going at the baseline keep (a few KiB each)
    /// and malloc's bookkeeping.
    static let malloc = Limit(name: "malloc in use", allowanceKiB: 512, trendMiBPerHour: 0.5)
    /// Private pages also follow malloc's arenas and free lists, page by page: twice as loose.
    static let anonymous = Limit(name: "private memory (RssAnon)", allowanceKiB: 1024, trendMiBPerHour: 1.0)
    /// Entries replaced at the bound free their memory as the next ones land.
    static let settle = 60.0
    /// A slope over fewer minutes is mostly the mix's noise: reported, not judged.
    static let minimumTrendMinutes = 20.0

    /// Samples whose median stands for each end of the judged window: one
    /// sample sits anywhere on the bounded logs' sawtooth and malloc's free
    /// lists (a few hundred KiB from one sample to the next), so the growth is
    /// the median of the last ones less the median of the first ones.
    static let endSamples = 5

    /// The figures at the two ends of `points`: the medians of `endSamples`
    /// (fewer in a short window: a third of it, at least one).
    static func ends(_ points: [(seconds: Double, kib: Int)]) -> (first: Int, last: Int, samples: Int)? {
        guard !points.isEmpty else { return nil }
        let count = max(1, min(endSamples, points.count / 3))
        func median(_ slice: ArraySlice<(seconds: Double, kib: Int)>) -> Int {
            slice.map(\.kib).sorted()[slice.count / 2]
        }
        return (median(points.prefix(count)), median(points.suffix(count)), count)
    }

    /// Judges one figure over `points` (seconds, KiB), from the baseline
    /// (`since` names it) to the end measurement; nil when it passes.
    static func failure(_ limit: Limit, _ points: [(seconds: Double, kib: Int)], since: String) -> String? {
        guard let first = points.first, let last = points.last, let ends = ends(points) else { return nil }
        let growth = ends.last - ends.first
        if growth > limit.allowanceKiB {
            return "\(limit.name) grew by \(signedMiB(growth)) MiB \(since) "
                + "(allowed \(String(format: "%.2f", Double(limit.allowanceKiB) / 1024)) MiB)"
        }
        let minutes = (last.seconds - first.seconds) / 60
        if minutes >= minimumTrendMinutes, let slope = slope(points), slope > limit.trendMiBPerHour {
            return "\(limit.name) trends \(String(format: "%+.2f", slope)) MiB/h \(since) "
                + "(allowed \(String(format: "%.1f", limit.trendMiBPerHour)) MiB/h)"
        }
        return nil
    }

    /// Least squares, in MiB per hour; nil with fewer than 6 points.
    static func slope(_ points: [(seconds: Double, kib: Int)]) -> Double? {
        guard points.count >= 6 else { return nil }
        let n = Double(points.count)
        let meanX = points.map(\.seconds).reduce(0, +) / n
        let meanY = points.map { Double($0.kib) }.reduce(0, +) / n
        let sxy = points.map { ($0.seconds - meanX) * (Double($0.kib) - meanY) }.reduce(0, +)
        let sxx = points.map { ($0.seconds - meanX) * ($0.seconds - meanX) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        return sxy / sxx * 3600 / 1024
    }

    static func signedMiB(_ kib: Int) -> String { String(format: "%+.2f", Double(kib) / 1024) }
}
