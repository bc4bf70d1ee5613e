import RelavoiPhone

/// Proxy numbers as the user reads them ("+2348000000001" → "+234 800 000
/// 0001"), formatted once per number: banners are rebuilt on every change of
/// a call, and libphonenumber is not free. Bounded, since numbers come from
/// the network; when full it starts over (a handful of proxy numbers is the
/// usual case).
@MainActor
struct ReadableNumbers {
    static let capacity = 64
    private var formatted: [String: String] = [:]

    /// What libphonenumber cannot parse comes back as received.
    mutating func text(_ number: String) -> String {
        if let known = formatted[number] { return known }
        let text = PhoneNumberText.international(number)
        if formatted.count >= Self.capacity { formatted.removeAll(keepingCapacity: true) }
        formatted[number] = text
        return text
    }
}
