/// `lock-screen = label | number | badge | off`: what the call card on the locked screen
/// may show (the GNOME extension draws it; the agent decides, in the `Calls` entries).
/// Every setting but `off` shows the badge and the call's state (ringing, timer, ended);
/// `label` adds the other party's label and the number's last digits, `number` the whole
/// number. GNOME's own switches (lock-screen notifications off, for all or for Relavoi)
/// win over any of these: the extension then shows nothing.
public enum LockScreenPrivacy: String, Equatable, Sendable, CaseIterable {
    case label, number, badge, off

    /// How many of the number's last digits `label` shows.
    public static let shownDigits = 4

    /// What one call's card may show.
    public struct Card: Equatable, Sendable {
        /// Whether there is a card at all.
        public var visible: Bool
        public var label: String
        public var number: String
    }

    public func card(label: String, proxyNumber: String) -> Card {
        switch self {
        case .label: return Card(visible: true, label: label, number: Self.lastDigits(of: proxyNumber))
        case .number: return Card(visible: true, label: label, number: proxyNumber)
        case .badge: return Card(visible: true, label: "", number: "")
        case .off: return Card(visible: false, label: "", number: "")
        }
    }

    /// `•••• 0001`: the last digits, the rest hidden; "" for a number with too few digits
    /// to hide anything.
    public static func lastDigits(of number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isNumber }
        guard digits.count > shownDigits else { return "" }
        return "•••• " + String(digits.suffix(shownDigits))
    }
}
