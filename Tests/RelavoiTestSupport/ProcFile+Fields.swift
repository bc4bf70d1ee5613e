import RelavoiGLib

extension ProcFile {
    /// `Key:   123 kB` lines of /proc/PID/status and smaps_rollup, as numbers.
    public static func fields(_ text: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            if let value, let number = Int(value) { result[String(line[..<colon])] = number }
        }
        return result
    }
}
