import FoundationEssentials
import Glibc
import RelavoiDBus

/// Reads the `Calls` property (`aa{sv}`) as a panel would: known keys of the
/// right type are taken, anything else is ignored (forward compatible).
enum CallsReading {
    struct Call: Equatable {
        var sessionId = ""
        var label = ""
        var proxyNumber = ""
        var badge = ""
        var phase = ""
        var answeredAtMilliseconds: Int64 = 0
        var durationSeconds: Int64 = 0

        /// Elapsed seconds while live, the final duration once ended, else 0.
        func seconds(at now: Date) -> Int {
            switch phase {
            case "live" where answeredAtMilliseconds > 0:
                return max(0, Int((now.timeIntervalSince1970 * 1000 - Double(answeredAtMilliseconds)) / 1000))
            case "ended":
                return Int(clamping: durationSeconds)
            default:
                return 0
            }
        }
    }

    static func calls(_ value: DBusValue) -> [Call] {
        (value.children ?? []).map { dictionary in
            var call = Call()
            for entry in dictionary.children ?? [] {
                guard case .dictEntry(.string(let key), .variant(let field)) = entry else { continue }
                switch (key, field) {
                case ("session-id", .string(let text)): call.sessionId = text
                case ("label", .string(let text)): call.label = text
                case ("proxy-number", .string(let text)): call.proxyNumber = text
                case ("badge", .string(let text)): call.badge = text
                case ("phase", .string(let text)): call.phase = text
                case ("answered-at", .int64(let number)): call.answeredAtMilliseconds = number
                case ("duration", .int64(let number)): call.durationSeconds = number
                default: break
                }
            }
            return call
        }
    }
}
