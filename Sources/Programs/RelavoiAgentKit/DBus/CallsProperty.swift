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
            (CallsKey.sessionId.rawValue, .string(call.sessionId)),
            (CallsKey.label.rawValue, .string(call.label)),
            (CallsKey.proxyNumber.rawValue, .string(call.proxyNumber)),
            (CallsKey.badge.rawValue, .string(call.badge.rawValue)),
            (CallsKey.badgeText.rawValue, .string(phrases.words(call.badge))),
            (CallsKey.phase.rawValue, .string(call.phase.callsName)),
            (CallsKey.rangAt.rawValue, .int64(UnixMilliseconds.of(call.rangAt))),
            (CallsKey.answeredAt.rawValue, .int64(UnixMilliseconds.of(call.answeredAt))),
            (CallsKey.endedAt.rawValue, .int64(UnixMilliseconds.of(call.endedAt))),
            (CallsKey.duration.rawValue, .int64(Int64(call.durationSeconds))),
            (CallsKey.canOpen.rawValue, .bool(call.canOpen)),
            (CallsKey.lockScreen.rawValue, .bool(card.visible)),
            (CallsKey.lockLabel.rawValue, .string(card.label)),
            (CallsKey.lockNumber.rawValue, .string(card.number)),
        ])
    }
}
