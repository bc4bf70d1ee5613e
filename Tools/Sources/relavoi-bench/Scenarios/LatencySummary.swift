/// Percentiles of one latency sample set, in milliseconds.
struct LatencySummary: Codable, Equatable {
    var samples: Int
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double

    init?(_ values: [Double]) {
        guard let p50 = Stats.percentile(values, 50), let p90 = Stats.percentile(values, 90),
            let p99 = Stats.percentile(values, 99), let max = values.max()
        else { return nil }
        samples = values.count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }
}
