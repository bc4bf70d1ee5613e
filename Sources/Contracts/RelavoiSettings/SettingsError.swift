import FoundationEssentials

/// A settings value that cannot be used, with what to write instead.
public struct SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    public let key: String
    public let message: String
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
    public var description: String { "\(key): \(message)" }
}
