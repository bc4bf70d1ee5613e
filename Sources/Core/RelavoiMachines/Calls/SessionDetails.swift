import RelavoiCore

/// What the agent takes from `GET /sessions/{id}` and `GET /sessions/verify`.
public struct SessionDetails: Equatable, Sendable {
    public var proxyNumber: String?
    public var label: String?
    /// The session's metadata, for `open-url`'s `{metadata.KEY}`.
    public var metadata: [String: JSONValue]
    /// ACTIVE or GRACE_PERIOD, for this tenant.
    public var isLive: Bool

    /// Reads a session object; nil when it is not one.
    public init?(json: JSONValue, labelKey: String, tenantId: String?) {
        guard case .object(let fields) = json, fields["id"]?.stringValue != nil else { return nil }
        proxyNumber = fields["proxyNumber"]?.stringValue
        label = fields["metadata"]?[labelKey]?.stringValue
        if case .object(let values) = fields["metadata"] ?? .null { metadata = values } else { metadata = [:] }
        let state = fields["state"]?.stringValue ?? ""
        let tenantMatches = fields["tenantId"]?.stringValue.map { $0.lowercased() == tenantId?.lowercased() } ?? true
        isLive = (state == "ACTIVE" || state == "GRACE_PERIOD") && tenantMatches
    }

    /// `GET /sessions/verify`: verified only when it names this session.
    public static func verifies(_ json: JSONValue, sessionId: String) -> Bool {
        guard case .bool(true) = json["verified"] ?? .null else { return false }
        return json["sessionId"]?.stringValue == sessionId
    }

    /// The session ids of one page of `GET /sessions`, and the next cursor.
    public static func page(_ json: JSONValue) -> (ids: [String], next: String?)? {
        guard case .array(let items) = json["data"] ?? .null else { return nil }
        let ids = items.compactMap { $0["id"]?.stringValue }
        return (ids, json["pagination"]?["after"]?.stringValue)
    }
}
