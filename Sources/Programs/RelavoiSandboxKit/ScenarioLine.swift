import Foundation
import RelavoiCore

/// One scenario line: a JSON object with `at` and exactly one action key.
enum ScenarioLine {
    typealias Action = Scenario.Action

    /// Action keys, with the extra keys each one allows.
    static let actions: [String: Set<String>] = [
        "event": ["payload", "id"], "flat": ["fields"], "raw": [], "close": ["reason"], "drop": [],
        "pings": [], "expireToken": [], "session": [], "removeSession": [], "failREST": [], "restLatency": [],
        "waitForClient": [], "log": [], "quit": [],
    ]

    static func parse(_ text: String, number: Int) throws(Scenario.ParseError) -> Scenario.Step {
        func fail(_ message: String) -> Scenario.ParseError { Scenario.ParseError(line: number, message: message) }
        guard let json = try? JSONText.decode(text) else { throw fail("not valid JSON") }
        guard case .object(let object) = json else { throw fail("not a JSON object") }
        let at: Double
        switch object["at"] {
        case .int(let value): at = Double(value)
        case .double(let value): at = value
        case nil: throw fail("missing \"at\" (seconds)")
        default: throw fail("\"at\" must be a number")
        }
        guard at >= 0, at.isFinite, at < 366 * 86_400 else { throw fail("\"at\" must be 0 or more seconds") }
        let keys = Set(object.keys).subtracting(["at"])
        let named = keys.filter { actions[$0] != nil }
        guard named.count == 1, let key = named.first else {
            throw fail(
                named.isEmpty
                    ? "no action; expected one of \(actions.keys.sorted().joined(separator: ", "))"
                    : "more than one action: \(named.sorted().joined(separator: ", "))")
        }
        let unknown = keys.subtracting([key]).subtracting(actions[key] ?? [])
        guard unknown.isEmpty else {
            throw fail("unexpected key(s) for \(key): \(unknown.sorted().joined(separator: ", "))")
        }
        do {
            return Scenario.Step(at: at, action: try action(key, object), line: number)
        } catch let message {
            throw fail(message.text)
        }
    }

    struct Message: Error { var text: String }

    private static func action(_ key: String, _ object: [String: JSONValue]) throws(Message) -> Action {
        let value = object[key] ?? .null
        switch key {
        case "event":
            return .event(
                type: try nonEmptyString(value, key), payload: try objectValue(object["payload"], "payload"),
                id: try optionalString(object["id"], "id"))
        case "flat":
            return .flat(type: try nonEmptyString(value, key), fields: try objectValue(object["fields"], "fields"))
        case "raw":
            guard case .string(let text) = value else { throw Message(text: "\"raw\" must be a string") }
            return .raw(text)
        case "close":
            guard case .int(let code) = value, SandboxServer.isValidCloseCode(code) else {
                throw Message(text: "\"close\" must be a close code 1000-4999 (not 1005, 1006, 1015)")
            }
            return .close(code: code, reason: try optionalString(object["reason"], "reason") ?? "")
        case "drop": try requireTrue(value, key); return .drop
        case "expireToken": try requireTrue(value, key); return .expireTokens
        case "waitForClient": try requireTrue(value, key); return .waitForClient
        case "quit": try requireTrue(value, key); return .quit
        case "pings":
            guard case .bool(let on) = value else { throw Message(text: "\"pings\" must be true or false") }
            return .pings(on)
        case "session":
            return .session(try session(value))
        case "removeSession":
            return .removeSession(try nonEmptyString(value, key))
        case "restLatency":
            let seconds: Double
            switch value {
            case .int(let number): seconds = Double(number)
            case .double(let number): seconds = number
            default: throw Message(text: "\"restLatency\" must be a number of seconds")
            }
            guard seconds >= 0, seconds <= 600, seconds.isFinite else {
                throw Message(text: "\"restLatency\" must be 0-600 seconds")
            }
            return .restLatency(seconds)
        case "failREST":
            if value == .null { return .failREST(nil) }
            guard case .int(let status) = value, (100...599).contains(status) else {
                throw Message(text: "\"failREST\" must be an HTTP status or null")
            }
            return .failREST(status)
        default:
            guard case .string(let text) = value else { throw Message(text: "\"log\" must be a string") }
            return .log(text)
        }
    }

    private static func session(_ value: JSONValue) throws(Message) -> SandboxSession {
        guard case .object = value else { throw Message(text: "\"session\" must be an object") }
        do {
            return try JSONDecoder().decode(SandboxSession.self, from: Data(JSONText.encode(value).utf8))
        } catch let error as DecodingError {
            throw Message(text: "bad session: \(describe(error))")
        } catch {
            throw Message(text: "bad session")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func requireTrue(_ value: JSONValue, _ key: String) throws(Message) {
        guard value == .bool(true) else { throw Message(text: "\"\(key)\" must be true") }
    }

    private static func nonEmptyString(_ value: JSONValue, _ key: String) throws(Message) -> String {
        guard case .string(let text) = value, !text.isEmpty else {
            throw Message(text: "\"\(key)\" must be a non-empty string")
        }
        return text
    }

    private static func optionalString(_ value: JSONValue?, _ key: String) throws(Message) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw Message(text: "\"\(key)\" must be a string")
        }
    }

    private static func objectValue(_ value: JSONValue?, _ key: String) throws(Message) -> [String: JSONValue] {
        switch value {
        case nil: return [:]
        case .object(let fields)?: return fields
        default: throw Message(text: "\"\(key)\" must be an object")
        }
    }
}
