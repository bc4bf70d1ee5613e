import FoundationEssentials

/// What a call's banner does when the call ends: `immediate`, `default` or `after:SECONDS`.
public enum AgentDismissPolicy: Equatable, Sendable, CustomStringConvertible {
    case immediate
    case `default`
    case after(seconds: Int)

    /// `after:SECONDS` takes 0 to 4 hours.
    public static let longestLinger = 4 * 3600

    /// nil: not a policy.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "immediate": self = .immediate
        case "default": self = .default
        default:
            let parts = text.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "after", let seconds = Int(parts[1]),
                (0...Self.longestLinger).contains(seconds)
            else { return nil }
            self = .after(seconds: seconds)
        }
    }

    /// As written in agent.conf.
    public var description: String {
        switch self {
        case .immediate: return "immediate"
        case .default: return "default"
        case .after(let seconds): return "after:\(seconds)"
        }
    }

    /// The banner's policy for a call that ends at `now`.
    public func policy(now: Date) -> DismissPolicy {
        switch self {
        case .immediate: return .immediate
        case .default: return .default
        case .after(let seconds): return .after(now.addingTimeInterval(TimeInterval(seconds)))
        }
    }
}
