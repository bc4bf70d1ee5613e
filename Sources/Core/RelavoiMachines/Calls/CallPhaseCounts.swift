import FoundationEssentials

/// How many of the calls the person is shown ring and how many are answered: the calls
/// with a banner, those counted in the summary and those whose banner they dismissed
/// (the call goes on). Calls the proxy-number filter keeps out are not among them.
public struct CallPhaseCounts: Equatable, Sendable {
    public var ringing = 0
    public var answered = 0

    public init(ringing: Int = 0, answered: Int = 0) {
        self.ringing = ringing
        self.answered = answered
    }

    mutating func add(_ phase: CallBook.Phase, _ change: Int) {
        switch phase {
        case .ringing: ringing += change
        case .active: answered += change
        }
    }
}
