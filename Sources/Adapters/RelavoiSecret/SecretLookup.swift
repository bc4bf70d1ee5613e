/// What a keyring lookup found.
public enum SecretLookup<Secret: Sendable>: Sendable {
    case found(Secret)
    /// The keyring answered: no such item.
    case notFound
    /// No keyring on the bus, locked and not unlocked, an error, or no answer in time.
    case unavailable(String)
}

extension SecretLookup: Equatable where Secret: Equatable {}
