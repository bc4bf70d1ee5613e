import Foundation
import RelavoiCore

/// A session as the sandbox stores it. Codable with the wire's field names;
/// dates are ISO-8601 strings. Only `id` and `proxyNumber` are required when
/// decoding (a scenario's `session` step); everything else has a default.
public struct SandboxSession: Codable, Sendable, Equatable {
    public var id: String
    public var proxyNumber: String
    /// `PENDING`, `ACTIVE`, `GRACE_PERIOD`, `EXPIRED` or `FAILED`.
    public var state: String
    /// nil or empty: the server's tenant (filled in by `upsertSession`).
    public var tenantId: String?
    public var directionMode: String
    public var recordingEnabled: Bool
    public var metadata: [String: JSONValue]
    public var createdAt: Date
    public var activatedAt: Date?
    public var expiresAt: Date?
    public var endedAt: Date?
    public var callCount: Int
    public var lastCallAt: Date?
    /// The real phones bound to the session, E.164; used only by
    /// `GET /sessions/verify`, never sent over REST.
    public var userPhones: [String]

    public static let states: Set<String> = ["PENDING", "ACTIVE", "GRACE_PERIOD", "EXPIRED", "FAILED"]

    public init(
        id: String, proxyNumber: String, state: String = "ACTIVE", tenantId: String? = nil,
        directionMode: String = "BIDIRECTIONAL", recordingEnabled: Bool = false,
        metadata: [String: JSONValue] = [:], createdAt: Date = Date(), activatedAt: Date? = nil,
        expiresAt: Date? = nil, endedAt: Date? = nil, callCount: Int = 0, lastCallAt: Date? = nil,
        userPhones: [String] = []
    ) {
        self.id = id
        self.proxyNumber = proxyNumber
        self.state = state
        self.tenantId = tenantId
        self.directionMode = directionMode
        self.recordingEnabled = recordingEnabled
        self.metadata = metadata
        self.createdAt = createdAt
        self.activatedAt = activatedAt ?? (state == "PENDING" ? nil : createdAt)
        self.expiresAt = expiresAt
        self.endedAt = endedAt
        self.callCount = callCount
        self.lastCallAt = lastCallAt
        self.userPhones = userPhones
    }

    enum CodingKeys: String, CodingKey {
        case id, proxyNumber, state, tenantId, directionMode, recordingEnabled, metadata
        case createdAt, activatedAt, expiresAt, endedAt, callCount, lastCallAt, userPhones
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let state = try c.decodeIfPresent(String.self, forKey: .state) ?? "ACTIVE"
        guard Self.states.contains(state) else {
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: c, debugDescription: "unknown state \(state)")
        }
        let createdAt = try Self.date(c, .createdAt) ?? Date()
        self.init(
            id: try c.decode(String.self, forKey: .id),
            proxyNumber: try c.decode(String.self, forKey: .proxyNumber),
            state: state,
            tenantId: try c.decodeIfPresent(String.self, forKey: .tenantId),
            directionMode: try c.decodeIfPresent(String.self, forKey: .directionMode) ?? "BIDIRECTIONAL",
            recordingEnabled: try c.decodeIfPresent(Bool.self, forKey: .recordingEnabled) ?? false,
            metadata: try c.decodeIfPresent([String: JSONValue].self, forKey: .metadata) ?? [:],
            createdAt: createdAt,
            activatedAt: try Self.date(c, .activatedAt),
            expiresAt: try Self.date(c, .expiresAt),
            endedAt: try Self.date(c, .endedAt),
            callCount: try c.decodeIfPresent(Int.self, forKey: .callCount) ?? 0,
            lastCallAt: try Self.date(c, .lastCallAt),
            userPhones: try c.decodeIfPresent([String].self, forKey: .userPhones) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(proxyNumber, forKey: .proxyNumber)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(tenantId, forKey: .tenantId)
        try c.encode(directionMode, forKey: .directionMode)
        try c.encode(recordingEnabled, forKey: .recordingEnabled)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(WireTime.string(createdAt), forKey: .createdAt)
        try c.encodeIfPresent(activatedAt.map(WireTime.string), forKey: .activatedAt)
        try c.encodeIfPresent(expiresAt.map(WireTime.string), forKey: .expiresAt)
        try c.encodeIfPresent(endedAt.map(WireTime.string), forKey: .endedAt)
        try c.encode(callCount, forKey: .callCount)
        try c.encodeIfPresent(lastCallAt.map(WireTime.string), forKey: .lastCallAt)
        try c.encode(userPhones, forKey: .userPhones)
    }

    /// A date given as an ISO-8601 string, or as a number of seconds from now
    /// (`"expiresAt": 600` = in ten minutes, `"lastCallAt": -5` = five seconds ago).
    private static func date(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard c.contains(key), try !c.decodeNil(forKey: key) else { return nil }
        if let offset = try? c.decode(Double.self, forKey: key) { return Date(timeIntervalSinceNow: offset) }
        let text = try c.decode(String.self, forKey: key)
        guard let date = WireTime.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not ISO-8601: \(text)")
        }
        return date
    }

    /// The session as `GET /sessions/{id}` shows it (no `userPhones`).
    var restJSON: JSONValue {
        .object([
            "id": .string(id),
            "tenantId": tenantId.map(JSONValue.string) ?? .null,
            "proxyNumber": .string(proxyNumber),
            "state": .string(state),
            "directionMode": .string(directionMode),
            "recordingEnabled": .bool(recordingEnabled),
            "metadata": .object(metadata),
            "createdAt": WireTime.json(createdAt),
            "activatedAt": WireTime.json(activatedAt),
            "expiresAt": WireTime.json(expiresAt),
            "endedAt": WireTime.json(endedAt),
            "callCount": .int(callCount),
            "lastCallAt": WireTime.json(lastCallAt),
        ])
    }
}
