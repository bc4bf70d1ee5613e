import FoundationEssentials
import RelavoiCore
import RelavoiDBus

/// The `Health` property (`a{sv}`): `state` s ("connected" | "reconnecting" |
/// "offline" | "refused" | "not-set-up") and `since` x (unix milliseconds, 0
/// when none). Unknown keys are for later; readers ignore them.
package enum HealthProperty {
    package static let signature = "a{sv}"

    package static func value(_ health: ConnectionHealth) -> DBusValue {
        .dictionary([("state", .string(health.name)), ("since", .int64(UnixMilliseconds.of(health.since)))])
    }

    /// The property as a reader takes it: the state ("" when absent) and since when.
    package static func reading(_ value: DBusValue) -> (state: String, since: Date?) {
        var state = ""
        var since: Date?
        for entry in value.children ?? [] {
            guard case .dictEntry(.string(let key), .variant(let field)) = entry else { continue }
            switch (key, field) {
            case ("state", .string(let text)): state = text
            case ("since", .int64(let number)) where number > 0:
                since = Date(timeIntervalSince1970: Double(number) / 1000)
            default: break
            }
        }
        return (state, since)
    }
}
