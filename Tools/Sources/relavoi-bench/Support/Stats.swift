import Foundation

/// Percentiles (nearest rank) and the median-with-spread of repeated runs.
enum Stats {
    static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// One metric over the repeated runs.
struct Spread: Codable, Equatable {
    var median: Double
    var min: Double
    var max: Double
    var runs: [Double]

    init?(_ runs: [Double?]) {
        let values = runs.compactMap { $0 }.filter { $0.isFinite }
        guard let median = Stats.median(values), let low = values.min(), let high = values.max() else { return nil }
        self.median = median
        self.min = low
        self.max = high
        self.runs = values
    }
}
