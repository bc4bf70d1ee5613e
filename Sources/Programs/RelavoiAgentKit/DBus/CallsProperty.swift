import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiCore
import RelavoiDBus

/// The `Calls` property (`aa{sv}`): one dictionary a call, oldest first, with
/// the times a panel needs to draw the timer itself (unix milliseconds, 0 when
/// not known or not yet). Unknown keys are for later; readers ignore them.
/// `lock-screen`, `lock-label` and `lock-number` are what the lock screen may show of the
/// call (`LockScreenPrivacy`): decided here, so no panel has its own idea of it.
enum CallsProperty {
    static let signature = "aa{sv}"

    static func value(_ calls: [BannerListing], phrases: BannerPhrases, lockScreen: LockScreenPrivacy) -> DBusValue {
        .array(elementSignature: "a{sv}", calls.map { entry($0, phrases: phrases, lockScreen: lockScreen) })
    }

    private static func entry(_ call: BannerListing, phrases: BannerPhrases, lockScreen: LockScreenPrivacy)
        -> DBusValue
    {
        let card = lockScreen.card(label: call.label, proxyNumber: call.proxyNumber)
        return .dictionary([
            ("session-id", .string(call.sessionId)),
            ("label", .string(call.label)),
            ("proxy-number", .string(call.proxyNumber)),
            ("badge", .string(call.badge.rawValue)),
            ("badge-text", .string(phrases.words(call.badge))),
            ("phase", .string(call.phase.callsName)),
            ("rang-at", .int64(UnixMilliseconds.of(call.rangAt))),
            ("answered-at", .int64(UnixMilliseconds.of(call.answeredAt))),
            ("ended-at", .int64(UnixMilliseconds.of(call.endedAt))),
            ("duration", .int64(Int64(call.durationSeconds))),
            ("can-open", .bool(call.canOpen)),
            ("lock-screen", .bool(card.visible)),
            ("lock-label", .string(card.label)),
            ("lock-number", .string(card.number)),
        ])
    }
}
