import CGLib
import Foundation

/// What the reference clients send each tick: a live banner's content with
/// the hints the agent sends.
enum TickerContent {
    static func arguments(index: Int, second: Int, replacesId: UInt32) -> OpaquePointer? {
        NotifyTuple.make(
            appName: "Relavoi", replacesId: replacesId, summary: "Caller \(index)",
            body:
                "+1555000\(String(format: "%04d", index)) · "
                + String(format: "%02d:%02d", second / 60, second % 60) + "\n✔ Verified",
            hints: [
                ("category", g_variant_new_string("call")), ("urgency", g_variant_new_byte(1)),
                ("desktop-entry", g_variant_new_string("com.relavoi.Agent")), ("resident", g_variant_new_boolean(1)),
                ("suppress-sound", g_variant_new_boolean(1)),
            ], timeout: 0)
    }
}
