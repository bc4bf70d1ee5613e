import Foundation
import RelavoiCore

/// Stream entry ids like Redis's: `<epoch ms>-<sequence within that ms>`, increasing.
struct EventIDGenerator {
    private var lastMilliseconds = 0
    private var sequence = 0

    mutating func next(now: Date) -> String {
        let ms = max(WireTime.epochMilliseconds(now), lastMilliseconds)
        sequence = ms == lastMilliseconds ? sequence + 1 : 0
        lastMilliseconds = ms
        return "\(ms)-\(sequence)"
    }
}
