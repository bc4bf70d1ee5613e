/// The API secret. Prints as `<redacted>` in every form (interpolation,
/// `debugPrint`, `dump`, mirrors), so a stray log line cannot leak it; read
/// `value` only to hand it to the token exchange.
public struct APISecret: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "APISecret(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
