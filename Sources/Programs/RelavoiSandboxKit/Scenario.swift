import Foundation
import RelavoiCore

/// A timed script for the sandbox: one JSON object per line, each with `at`
/// (seconds) and exactly one action. Blank lines and lines starting with `#`
/// are ignored. See docs/sandbox.md for the full format.
public struct Scenario: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// `{"event": type, "payload": {...}, "id": "..."}`: an envelope frame; id nil = auto.
        case event(type: String, payload: [String: JSONValue], id: String?)
        /// `{"flat": type, "fields": {...}}`: the older flat frame.
        case flat(type: String, fields: [String: JSONValue])
        /// `{"raw": "text"}`: one text frame, as is.
        case raw(String)
        /// `{"close": 4003, "reason": "..."}`: WebSocket close with that code.
        case close(code: Int, reason: String)
        /// `{"drop": true}`: abrupt disconnect, no close frame.
        case drop
        /// `{"pings": false}`: stop (or resume) answering "ping" and sending pings.
        case pings(Bool)
        /// `{"expireToken": true}`: every issued token becomes invalid.
        case expireTokens
        /// `{"session": {...}}`: insert or replace a session.
        case session(SandboxSession)
        /// `{"removeSession": "id"}`.
        case removeSession(String)
        /// `{"failREST": 500}` or `{"failREST": null}`.
        case failREST(Int?)
        /// `{"restLatency": 1.5}`: REST answers come this many seconds late (0 = at once).
        case restLatency(Double)
        /// `{"waitForClient": true}`: later `at`s count from the next welcome
        /// (or from now, if a client is live already).
        case waitForClient
        /// `{"log": "text"}`: a line in the sandbox's log.
        case log(String)
        /// `{"quit": true}`: the executable exits; embedded servers call `onQuit`.
        case quit
    }

    public struct Step: Sendable, Equatable {
        /// Seconds after `play` started, or after the last `waitForClient` was satisfied.
        public var at: TimeInterval
        public var action: Action
        /// 1-based line in the source text.
        public var line: Int

        public init(at: TimeInterval, action: Action, line: Int = 0) {
            self.at = at
            self.action = action
            self.line = line
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "scenario line \(line): \(message)" }
    }

    public var steps: [Step]

    public init(steps: [Step]) { self.steps = steps }

    public static func load(path: String) throws -> Scenario {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let text = String(data: data, encoding: .utf8) else {
            throw ParseError(line: 0, message: "\(path) is not UTF-8")
        }
        return try parse(text)
    }

    public static func parse(_ text: String) throws(ParseError) -> Scenario {
        var steps: [Step] = []
        var segmentStart = 0.0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let step = try ScenarioLine.parse(line, number: index + 1)
            if step.at < segmentStart {
                throw ParseError(
                    line: index + 1,
                    message: "\"at\" \(step.at) is earlier than the step before (\(segmentStart)); steps run in order")
            }
            segmentStart = step.action == .waitForClient ? 0 : step.at
            steps.append(step)
        }
        return Scenario(steps: steps)
    }
}
