import FoundationEssentials

/// Why a frame was skipped. The description is one log-ready clause and
/// never quotes field values (they may hold phone numbers).
public struct FrameDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public let type: String?
    public let id: String?
    public let reason: String

    public init(type: String?, id: String?, reason: String) {
        self.type = type
        self.id = id
        self.reason = reason
    }

    public var description: String {
        var context: [String] = []
        if let type { context.append(type) }
        if let id, !id.isEmpty { context.append("id \(id)") }
        return context.isEmpty ? reason : context.joined(separator: " ") + ": " + reason
    }
}
