/// Seconds as the stream's log lines write them: whole seconds from 10 s up,
/// two decimals below ("0.05 s", "2.0 s", "30 s").
package enum DurationText {
    package static func seconds(_ seconds: Double) -> String {
        if seconds >= 10 { return "\(Int(seconds.rounded())) s" }
        return "\((seconds * 100).rounded() / 100) s"
    }
}
