import Foundation
import RelavoiCore

/// A call record as `GET /calls` shows it. The sandbox creates and updates
/// them from the `call.*` events it sends (see `EventTracker`); a scenario or
/// a test may also upsert them directly.
public struct SandboxCall: Codable, Sendable, Equatable {
    public var id: String
    public var sessionId: String
    /// `RINGING`, `ANSWERED`, `COMPLETED`, `MISSED` or `FAILED`.
    public var status: String
    /// `A_TO_B` or `B_TO_A`.
    public var direction: String
    public var durationSeconds: Int?
    public var initiatedAt: Date
    public var answeredAt: Date?
    public var endedAt: Date?
    public var cpaasCallId: String?
    public var recordingUrl: String?
    /// nil: the server's tenant.
    public var tenantId: String?

    public static let statuses: Set<String> = ["RINGING", "ANSWERED", "COMPLETED", "MISSED", "FAILED"]

    public init(
        id: String, sessionId: String, status: String = "RINGING", direction: String = "A_TO_B",
        durationSeconds: Int? = nil, initiatedAt: Date = Date(), answeredAt: Date? = nil,
        endedAt: Date? = nil, cpaasCallId: String? = nil, recordingUrl: String? = nil, tenantId: String? = nil
    ) {
        self.id = id
        self.sessionId = sessionId
        self.status = status
        self.direction = direction
        self.durationSeconds = durationSeconds
        self.initiatedAt = initiatedAt
        self.answeredAt = answeredAt
        self.endedAt = endedAt
        self.cpaasCallId = cpaasCallId
        self.recordingUrl = recordingUrl
        self.tenantId = tenantId
    }

    var isOpen: Bool { status == "RINGING" || status == "ANSWERED" }

    var restJSON: JSONValue {
        .object([
            "id": .string(id),
            "sessionId": .string(sessionId),
            "status": .string(status),
            "direction": .string(direction),
            "durationSeconds": durationSeconds.map(JSONValue.int) ?? .null,
            "initiatedAt": WireTime.json(initiatedAt),
            "answeredAt": WireTime.json(answeredAt),
            "endedAt": WireTime.json(endedAt),
            "cpaasCallId": cpaasCallId.map(JSONValue.string) ?? .null,
            "recordingUrl": recordingUrl.map(JSONValue.string) ?? .null,
        ])
    }
}
