import CGLib
import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiI18n

/// The `Calls` property (`aa{sv}`): one dictionary a call, oldest first, with
/// the times a panel needs to draw the timer itself (unix milliseconds, 0 when
/// not known or not yet). Unknown keys are for later; readers ignore them.
enum CallsProperty {
    static let signature = "aa{sv}"

    static func value(_ calls: [BannerListing]) -> OpaquePointer {
        let phrases = BannerPhrases.localized()
        return GVariantValues.array(of: "a{sv}", calls.map { entry($0, phrases: phrases) })
    }

    static func entry(_ call: BannerListing, phrases: BannerPhrases = .english) -> OpaquePointer {
        func field(_ key: String, _ value: OpaquePointer) -> OpaquePointer {
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))!
        }
        return GVariantValues.array(
            of: "{sv}",
            [
                field("session-id", g_variant_new_string(call.sessionId)),
                field("label", g_variant_new_string(call.label)),
                field("proxy-number", g_variant_new_string(call.proxyNumber)),
                field("badge", g_variant_new_string(call.badge.rawValue)),
                field("badge-text", g_variant_new_string(phrases.words(call.badge))),
                field("phase", g_variant_new_string(call.phase.callsName)),
                field("rang-at", g_variant_new_int64(milliseconds(call.rangAt))),
                field("answered-at", g_variant_new_int64(milliseconds(call.answeredAt))),
                field("ended-at", g_variant_new_int64(milliseconds(call.endedAt))),
                field("duration", g_variant_new_int64(gint64(call.durationSeconds))),
                field("can-open", g_variant_new_boolean(call.canOpen ? 1 : 0)),
            ])
    }

    static func milliseconds(_ date: Date?) -> gint64 {
        guard let date, date.timeIntervalSince1970.isFinite, date.timeIntervalSince1970 > 0 else { return 0 }
        return gint64(min(date.timeIntervalSince1970 * 1000, 9e15).rounded())
    }
}
