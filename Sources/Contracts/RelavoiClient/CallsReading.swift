import FoundationEssentials
import Glibc
import RelavoiDBus

/// Reads the `Calls` property (`aa{sv}`) as a panel would: known keys of the
/// right type are taken, anything else is ignored (forward compatible).
package enum CallsReading {
    package struct Call: Equatable {
        package var sessionId = ""
        package var label = ""
        package var proxyNumber = ""
        package var badge = ""
        package var badgeText = ""
        package var phase = ""
        package var answeredAtMilliseconds: Int64 = 0
        package var endedAtMilliseconds: Int64 = 0
        package var durationSeconds: Int64 = 0
        package var lockScreen = true
        package var lockLabel = ""
        package var lockNumber = ""

        package init() {}

        /// Elapsed seconds while live, the final duration once ended, else 0.
        package func seconds(at now: Date) -> Int {
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

    package static func calls(_ value: DBusValue) -> [Call] {
        (value.children ?? []).map { dictionary in
            var call = Call()
            for entry in dictionary.children ?? [] {
                guard case .dictEntry(.string(let key), .variant(let field)) = entry else { continue }
                switch (key, field) {
                case (CallsKey.sessionId.rawValue, .string(let text)): call.sessionId = text
                case (CallsKey.label.rawValue, .string(let text)): call.label = text
                case (CallsKey.proxyNumber.rawValue, .string(let text)): call.proxyNumber = text
                case (CallsKey.badge.rawValue, .string(let text)): call.badge = text
                case (CallsKey.badgeText.rawValue, .string(let text)): call.badgeText = text
                case (CallsKey.endedAt.rawValue, .int64(let number)): call.endedAtMilliseconds = number
                case (CallsKey.lockScreen.rawValue, .bool(let shown)): call.lockScreen = shown
                case (CallsKey.lockLabel.rawValue, .string(let text)): call.lockLabel = text
                case (CallsKey.lockNumber.rawValue, .string(let text)): call.lockNumber = text
                case (CallsKey.phase.rawValue, .string(let text)): call.phase = text
                case (CallsKey.answeredAt.rawValue, .int64(let number)): call.answeredAtMilliseconds = number
                case (CallsKey.duration.rawValue, .int64(let number)): call.durationSeconds = number
                default: break
                }
            }
            return call
        }
    }
}
