/// What a setting's value is, as the docs and the window show it.
public enum SettingType: Equatable, Sendable {
    /// `true` or `false` (`yes`/`no`, `on`/`off`, `1`/`0` work too).
    case bool
    /// One of these words.
    case choice([String])
    /// A whole number in this range.
    case number(ClosedRange<Int>)
    /// Free text, shown in the docs as this placeholder (`URL`, `UUID`, `E164`, …).
    case text(String)

    /// The values `--help` and the man page write after `key =`.
    public var synopsis: String {
        switch self {
        case .bool: return "true | false"
        case .choice(let words): return words.joined(separator: " | ")
        case .number(let range): return "\(range.lowerBound)..\(range.upperBound)"
        case .text(let placeholder): return placeholder
        }
    }
}
