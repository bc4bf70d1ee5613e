import CGLib
import FoundationEssentials
import Glibc

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

    static func calls(_ value: OpaquePointer) -> [Call] {
        (0..<GVariantValues.count(value)).map { index in
            let dictionary = GVariantValues.child(value, index)
            defer { g_variant_unref(dictionary) }
            var call = Call()
            for entryIndex in 0..<GVariantValues.count(dictionary) {
                let entry = GVariantValues.child(dictionary, entryIndex)
                defer { g_variant_unref(entry) }
                let key = GVariantValues.string(entry, 0)
                let boxed = GVariantValues.child(entry, 1)
                defer { g_variant_unref(boxed) }
                let field = g_variant_get_variant(boxed)!
                defer { g_variant_unref(field) }
                if GVariantValues.hasType(field, "s") {
                    let text = String(cString: g_variant_get_string(field, nil))
                    switch key {
                    case "session-id": call.sessionId = text
                    case "label": call.label = text
                    case "proxy-number": call.proxyNumber = text
                    case "badge": call.badge = text
                    case "phase": call.phase = text
                    default: break
                    }
                } else if GVariantValues.hasType(field, "x") {
                    let number = Int64(g_variant_get_int64(field))
                    switch key {
                    case "answered-at": call.answeredAtMilliseconds = number
                    case "duration": call.durationSeconds = number
                    default: break
                    }
                }
            }
            return call
        }
    }
}
