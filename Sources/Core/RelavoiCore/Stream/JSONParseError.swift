/// Why a byte sequence is not acceptable JSON.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case syntax
        case invalidUTF8
        case tooDeep
    }

    public let kind: Kind
    public let reason: String
    public let offset: Int

    public var description: String {
        switch kind {
        case .invalidUTF8: return "not valid UTF-8 (byte \(offset))"
        case .tooDeep: return "nested too deeply (byte \(offset))"
        case .syntax: return "invalid JSON at byte \(offset): \(reason)"
        }
    }
}
