import Foundation
import RelavoiAgentKit
import RelavoiCore

/// The checks `ControlService` runs on every `Start`, `Update` and `End` call
/// (`ControlArguments`), against oracles written from their documentation.
///
/// Input: a 16-byte header (little-endian Int32 elapsed_seconds, Int64
/// after_unix_seconds, UInt32 clock in Unix seconds), then up to four
/// strings separated by NUL (D-Bus strings hold no NUL): session_id,
/// proxy_number, other_party_label, policy. A short input is zero-padded.
enum ControlArgumentsFuzzing {
    struct Arguments {
        var elapsed: Int32
        var after: Int64
        var now: Date
        var sessionId: String
        var proxyNumber: String
        var label: String
        var policy: String
    }

    static func arguments(_ bytes: UnsafeRawBufferPointer) -> Arguments {
        var header = [UInt8](repeating: 0, count: 16)
        for index in 0..<min(16, bytes.count) { header[index] = bytes[index] }
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            var value: T = 0
            for index in (0..<MemoryLayout<T>.size).reversed() {
                value = value << 8 | T(truncatingIfNeeded: header[offset + index])
            }
            return value
        }
        let strings =
            bytes.count > 16
            ? bytes[16...].split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map {
                // D-Bus only carries valid UTF-8: GDBus refuses the message otherwise.
                String(decoding: $0, as: UTF8.self)
            } : []
        func string(_ index: Int) -> String { index < strings.count ? strings[index] : "" }
        return Arguments(
            elapsed: integer(0, Int32.self), after: integer(4, Int64.self),
            now: Date(timeIntervalSince1970: TimeInterval(integer(12, UInt32.self))),
            sessionId: string(0), proxyNumber: string(1), label: string(2), policy: string(3))
    }

    static func problems(_ bytes: UnsafeRawBufferPointer) -> [String] {
        problems(arguments(bytes))
    }

    static func problems(_ a: Arguments) -> [String] {
        var problems: [String] = []
        func check<T: Equatable>(
            _ name: String, _ result: Result<T, ControlError>, expected: T?, shown: String
        ) {
            switch (result, expected) {
            case (.success(let value), let expected?):
                if value != expected { problems.append("\(name) returned \(value), expected \(expected)") }
            case (.success(let value), nil):
                problems.append("\(name) accepted \(shown) as \(value)")
            case (.failure(let error), let expected?):
                problems.append("\(name) refused \(shown) (expected \(expected)): \(error)")
            case (.failure(let error), nil):
                problems += messageProblems(name, error)
            }
        }

        let s = a.sessionId.unicodeScalars
        check(
            "sessionId", Result { () throws(ControlError) in try ControlArguments.sessionId(a.sessionId) },
            expected: (1...128).contains(s.count) && s.allSatisfy(isSessionIdScalar) ? a.sessionId : nil,
            shown: a.sessionId.debugDescription)

        let p = a.proxyNumber.unicodeScalars
        check(
            "proxyNumber", Result { () throws(ControlError) in try ControlArguments.proxyNumber(a.proxyNumber) },
            expected: p.count <= 32 && p.allSatisfy(isPhoneScalar) && p.contains(where: isDigit) ? a.proxyNumber : nil,
            shown: a.proxyNumber.debugDescription)

        check(
            "label", Result { () throws(ControlError) in try ControlArguments.label(a.label) },
            expected: a.label.utf8.count <= 1024 ? a.label : nil, shown: "\(a.label.utf8.count) bytes")

        check(
            "elapsedSeconds", Result { () throws(ControlError) in try ControlArguments.elapsedSeconds(a.elapsed) },
            expected: (0...8 * 3600).contains(Int(a.elapsed)) ? Int(a.elapsed) : nil, shown: "\(a.elapsed)")

        // The policy name as sent, and the three valid names with the same time.
        for name in [a.policy, "immediate", "default", "after"] {
            check(
                "policy",
                Result { () throws(ControlError) in
                    try ControlArguments.policy(name, afterUnixSeconds: a.after, now: a.now)
                },
                expected: expectedPolicy(name, after: a.after, now: a.now),
                shown: "\(name.debugDescription) after \(a.after) at \(a.now.timeIntervalSince1970)")
        }
        return problems
    }

    /// The documented rule: "immediate"/"default" with 0, or "after" with a
    /// Unix time from an hour before `now` to 4 h (plus a minute) after it.
    static func expectedPolicy(_ name: String, after: Int64, now: Date) -> DismissPolicy? {
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        switch name {
        case "immediate": return after == 0 ? .immediate : nil
        case "default": return after == 0 ? .default : nil
        case "after":
            guard after >= nowSeconds - 3600, after <= nowSeconds + 4 * 3600 + 60 else { return nil }
            return .after(Date(timeIntervalSince1970: TimeInterval(after)))
        default: return nil
        }
    }

    /// A refusal is an `invalidArgument` whose message names the argument and
    /// can go to a terminal as is: printable ASCII (quoting nothing but a
    /// short plain policy name), never empty, never long.
    static func messageProblems(_ name: String, _ error: ControlError) -> [String] {
        guard case .invalidArgument(let message) = error else {
            return ["\(name) failed with \(error), not invalidArgument"]
        }
        var problems: [String] = []
        if message.isEmpty || message.utf8.count > 300 {
            problems.append("\(name): message of \(message.utf8.count) bytes")
        }
        if !message.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            problems.append("\(name): message is not printable ASCII: \(message.debugDescription)")
        }
        let argument = [
            "sessionId": "session_id", "proxyNumber": "proxy_number", "label": "other_party_label",
            "elapsedSeconds": "elapsed_seconds", "policy": "policy",
        ][name]!
        if !message.contains(argument) && !(name == "policy" && message.contains("after_unix_seconds")) {
            problems.append("\(name): message does not name \(argument): \(message.debugDescription)")
        }
        return problems
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    static func isSessionIdScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || isDigit(scalar)
            || ".:_-".unicodeScalars.contains(scalar)
    }

    static func isPhoneScalar(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || " +-()".unicodeScalars.contains(scalar)
    }
}
