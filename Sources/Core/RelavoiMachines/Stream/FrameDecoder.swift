import FoundationEssentials
import RelavoiCore

/// Decodes stream frames: the `{type, payload, id}` envelope and the older
/// flat shape (fields at the top level, time in `ts`), into `RelavoiEvent`s.
///
/// Unknown types become `.unknown(type:payload:)` with the whole frame.
/// Frames whose required fields are missing or of the wrong type throw, so
/// the caller can log them and go on.
public struct FrameDecoder: Sendable {
    /// JSON nesting limit; deeper frames are refused without recursing.
    public var maxDepth: Int

    public init(maxDepth: Int = 32) {
        self.maxDepth = maxDepth
    }

    public func decode(_ text: String) throws(FrameDecodeError) -> StreamFrame {
        var text = text
        let result: Result<StreamFrame, FrameDecodeError> = text.withUTF8 { buffer in
            do throws(FrameDecodeError) {
                return .success(try decode(utf8: UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func decode(utf8 bytes: [UInt8]) throws(FrameDecodeError) -> StreamFrame {
        let result: Result<StreamFrame, FrameDecodeError> = bytes.withUnsafeBytes { raw in
            do throws(FrameDecodeError) {
                return .success(try decode(utf8: raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes one frame straight from the socket's buffer (no copy of the frame).
    public func decode(utf8 bytes: UnsafeRawBufferPointer) throws(FrameDecodeError) -> StreamFrame {
        if bytes.count == 4, bytes.elementsEqual("pong".utf8) { return .pong }
        let root: JSONValue
        do {
            root = try JSONValue.parse(utf8: bytes, maxDepth: maxDepth)
        } catch {
            throw FrameDecodeError(type: nil, id: nil, reason: error.description)
        }
        return try decode(root)
    }

    /// Maps an already parsed frame.
    public func decode(_ root: JSONValue) throws(FrameDecodeError) -> StreamFrame {
        guard case .object(let top) = root else {
            throw FrameDecodeError(type: nil, id: nil, reason: "frame is not a JSON object")
        }
        guard let typeValue = top["type"] else {
            throw FrameDecodeError(type: nil, id: nil, reason: "\"type\" missing")
        }
        guard case .string(let type) = typeValue, !type.isEmpty else {
            throw FrameDecodeError(type: nil, id: nil, reason: "\"type\" is not a non-empty string")
        }
        var id: String?
        if case .string(let value) = top["id"], !value.isEmpty { id = value }

        switch type {
        case "connected":
            return .connected(
                tenantId: top["tenantId"]?.stringValue, at: Self.epochMilliseconds(top["at"]))
        case "pong":
            return .pong
        default:
            break
        }

        // The envelope keeps the fields in `payload`; older frames are flat.
        let fields: [String: JSONValue]
        switch top["payload"] {
        case .object(let payload)?: fields = payload
        case nil, .null?: fields = top
        case _?:
            if Self.knownTypes.contains(type) {
                throw FrameDecodeError(type: type, id: id, reason: "\"payload\" is not an object")
            }
            return .event(.unknown(type: type, payload: root), id: id)
        }

        let reader = FieldReader(type: type, id: id, fields: fields, top: top)
        let event: RelavoiEvent
        switch type {
        case "session.created":
            event = .sessionCreated(
                sessionId: try reader.string("sessionId"), proxyNumber: try reader.string("proxyNumber"),
                ts: try reader.timestamp())
        case "session.activated":
            event = .sessionActivated(
                sessionId: try reader.string("sessionId"), ts: try reader.timestamp())
        case "session.expired":
            event = .sessionExpired(sessionId: try reader.string("sessionId"), ts: try reader.timestamp())
        case "call.incoming":
            // No callerNumber by privacy design: fall back to the proxy number.
            let sessionId = try reader.string("sessionId")
            var caller = try reader.optionalString("callerNumber")
            if caller == nil { caller = try reader.string("proxyNumber") }
            event = .callIncoming(
                sessionId: sessionId, callerNumber: caller ?? "", ts: try reader.timestamp())
        case "call.answered":
            event = .callAnswered(sessionId: try reader.string("sessionId"), ts: try reader.timestamp())
        case "call.ended":
            event = .callEnded(
                sessionId: try reader.string("sessionId"),
                durationSeconds: try reader.duration("durationSeconds"),
                ts: try reader.timestamp())
        case "sms.received":
            event = .smsReceived(sessionId: try reader.string("sessionId"), ts: try reader.timestamp())
        default:
            event = .unknown(type: type, payload: root)
        }
        return .event(event, id: id)
    }

    public static let knownTypes: Set<String> = [
        "session.created", "session.activated", "session.expired", "call.incoming", "call.answered",
        "call.ended", "sms.received",
    ]

    static func epochMilliseconds(_ value: JSONValue?) -> Date? {
        switch value {
        case .int(let ms)?: return Date(timeIntervalSince1970: Double(ms) / 1000)
        case .double(let ms)?: return Date(timeIntervalSince1970: ms / 1000)
        default: return nil
        }
    }
}

/// Typed access to an event's fields with one clear error per problem.
private struct FieldReader {
    let type: String
    let id: String?
    let fields: [String: JSONValue]
    let top: [String: JSONValue]

    func fail(_ reason: String) -> FrameDecodeError {
        FrameDecodeError(type: type, id: id, reason: reason)
    }

    func string(_ key: String) throws(FrameDecodeError) -> String {
        guard let value = fields[key] else { throw fail("\"\(key)\" missing") }
        guard case .string(let text) = value else { throw fail("\"\(key)\" is not a string") }
        guard !text.isEmpty else { throw fail("\"\(key)\" is empty") }
        return text
    }

    /// nil when absent, null or empty; an error when of another type.
    func optionalString(_ key: String) throws(FrameDecodeError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        case _?: throw fail("\"\(key)\" is not a string")
        }
    }

    /// A whole number of seconds; absent or null is 0.
    func duration(_ key: String) throws(FrameDecodeError) -> Int {
        switch fields[key] {
        case nil, .null?: return 0
        case .int(let value)?:
            guard value >= 0 else { throw fail("\"\(key)\" is negative") }
            return value
        case .double(let value)?:
            guard value >= 0, value < 1e15 else { throw fail("\"\(key)\" is out of range") }
            return Int(value.rounded())
        case _?: throw fail("\"\(key)\" is not a number")
        }
    }

    /// `timestamp` (envelope) or `ts` (flat frames), ISO-8601.
    func timestamp() throws(FrameDecodeError) -> Date {
        let key: String
        let value: JSONValue
        if let found = fields["timestamp"] ?? top["timestamp"] {
            (key, value) = ("timestamp", found)
        } else if let found = fields["ts"] ?? top["ts"] {
            (key, value) = ("ts", found)
        } else {
            throw fail("\"timestamp\" missing")
        }
        guard case .string(let text) = value else { throw fail("\"\(key)\" is not a string") }
        guard let date = ISO8601Timestamp.parse(text) else {
            throw fail("\"\(key)\" is not an ISO-8601 time")
        }
        return date
    }
}
