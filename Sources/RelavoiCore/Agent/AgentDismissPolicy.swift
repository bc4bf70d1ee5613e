import FoundationEssentials

/// `dismiss-policy = immediate | default | after:SECONDS`.
public enum AgentDismissPolicy: Equatable, Sendable {
    case immediate
    case `default`
    case after(seconds: Int)

    public init(parsing text: String) throws(SettingsError) {
        switch text.lowercased() {
        case "immediate": self = .immediate
        case "default": self = .default
        default:
            let parts = text.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "after", let seconds = Int(parts[1]),
                (0...4 * 3600).contains(seconds)
            else {
                throw SettingsError(
                    key: "dismiss-policy", message: "expected immediate, default or after:SECONDS (0 to 14400)")
            }
            self = .after(seconds: seconds)
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
