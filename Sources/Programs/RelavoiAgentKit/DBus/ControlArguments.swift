import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiMachines

/// Validates the arguments of the control interface's methods; every failure
/// is an `.invalidArgument` whose message names the argument (by its D-Bus
/// name) and the rule it broke. Pure: no D-Bus, no clock but the one passed in.
public enum ControlArguments {
    public static let sessionIdMaxLength = 128
    public static let proxyNumberMaxLength = 32
    public static let labelMaxBytes = 1024
    /// `Update`'s elapsed time: at most the life of an active banner (8 h).
    public static let elapsedRange = 0...Int(BannerLimits.maximumActive)
    /// How far in the past an "after" close time may be (it then closes at once).
    public static let afterPastTolerance: Int64 = 3600
    /// How far past the longest linger an "after" close time may be (clock rounding).
    public static let afterFutureSlack: Int64 = 60

    /// 1–128 characters of `A-Z a-z 0-9 . _ : -`.
    public static func sessionId(_ value: String) throws(ControlError) -> String {
        guard !value.isEmpty else { throw .invalidArgument("session_id is empty") }
        let count = value.unicodeScalars.count
        guard count <= sessionIdMaxLength else {
            throw .invalidArgument("session_id is \(count) characters long; at most \(sessionIdMaxLength) are allowed")
        }
        guard value.unicodeScalars.allSatisfy(isSessionIdScalar) else {
            throw .invalidArgument("session_id may hold only the characters A-Z a-z 0-9 . _ : -")
        }
        return value
    }

    /// 1–32 characters of digits, spaces and `+ - ( )`, with at least one digit.
    public static func proxyNumber(_ value: String) throws(ControlError) -> String {
        let count = value.unicodeScalars.count
        guard count <= proxyNumberMaxLength else {
            throw .invalidArgument(
                "proxy_number is \(count) characters long; at most \(proxyNumberMaxLength) are allowed")
        }
        guard value.unicodeScalars.allSatisfy(isPhoneScalar) else {
            throw .invalidArgument("proxy_number may hold only digits, spaces and + - ( )")
        }
        guard value.unicodeScalars.contains(where: isDigit) else {
            throw .invalidArgument("proxy_number has no digit")
        }
        return value
    }

    /// At most 1024 bytes of UTF-8; may be empty. The banner sanitises what it shows.
    public static func label(_ value: String) throws(ControlError) -> String {
        let bytes = value.utf8.count
        guard bytes <= labelMaxBytes else {
            throw .invalidArgument("other_party_label is \(bytes) bytes long; at most \(labelMaxBytes) are allowed")
        }
        return value
    }

    /// 0 … 8 h in seconds.
    public static func elapsedSeconds(_ value: Int32) throws(ControlError) -> Int {
        let seconds = Int(value)
        guard seconds >= 0 else { throw .invalidArgument("elapsed_seconds is negative (\(seconds))") }
        guard elapsedRange.contains(seconds) else {
            throw .invalidArgument(
                "elapsed_seconds is \(seconds); at most \(elapsedRange.upperBound) (8 hours) is allowed")
        }
        return seconds
    }

    /// `"immediate"` or `"default"` with `after` 0, or `"after"` with a Unix
    /// time from an hour ago to `BannerLimits.endedLinger` (4 h) from `now`.
    public static func policy(_ name: String, afterUnixSeconds after: Int64, now: Date) throws(ControlError)
        -> DismissPolicy
    {
        switch name {
        case "immediate", "default":
            guard after == 0 else {
                throw .invalidArgument("after_unix_seconds must be 0 unless policy is \"after\" (got \(after))")
            }
            return name == "immediate" ? .immediate : .default
        case "after":
            let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
            let earliest = nowSeconds - afterPastTolerance
            let latest = nowSeconds + Int64(BannerLimits.endedLinger) + afterFutureSlack
            guard after >= earliest, after <= latest else {
                throw .invalidArgument(
                    "after_unix_seconds \(after) is out of range: it must lie between an hour before now "
                        + "(\(earliest)) and 4 hours after now (\(latest))")
            }
            return .after(Date(timeIntervalSince1970: TimeInterval(after)))
        default:
            // Echo the name only when it is short and plain (it may end up on a terminal).
            let plain = name.unicodeScalars.count <= 32 && name.unicodeScalars.allSatisfy(isSessionIdScalar)
            let shown = plain ? "policy \"\(name)\"" : "policy"
            throw .invalidArgument("\(shown) is unknown; use \"immediate\", \"default\" or \"after\"")
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isSessionIdScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || isDigit(scalar)
            || scalar == "." || scalar == "_" || scalar == ":" || scalar == "-"
    }

    private static func isPhoneScalar(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || scalar == " " || scalar == "+" || scalar == "-" || scalar == "(" || scalar == ")"
    }
}
