/// The soak's session and event ids, all of one width. A counter that gains
/// a digit makes every later key of the agent's bounded caches a little
/// larger (and from 16 bytes on no longer a small string Swift keeps
/// inline), which reads as growth once the caches are full: "soak_quiet_9999"
/// costs the directory no allocation, "soak_quiet_10000" one. Relavoi's own
/// ids have a fixed length too.
enum SoakIdentifier {
    static func make(_ prefix: String, _ serial: Int) -> String {
        let digits = String(serial)
        return prefix + String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }
}
