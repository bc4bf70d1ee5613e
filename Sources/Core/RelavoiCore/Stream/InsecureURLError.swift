import FoundationEssentials

/// A URL refused by the transport policy; the message names the URL
/// without its query (which may hold a token).
public struct InsecureURLError: Error, Equatable, Sendable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public var description: String { "refused \(url): \(reason)" }
}
