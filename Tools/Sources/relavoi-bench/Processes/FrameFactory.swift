import Foundation

/// Stream frames as the sandbox sends them (`{"type","payload","id"}`, or the
/// older flat shape), written directly so building them costs next to nothing
/// and stays out of the timed path.
struct FrameFactory {
    let tenantId: String
    let prefix: String
    private var sequence = 0
    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    init(tenantId: String, prefix: String) {
        self.tenantId = tenantId
        self.prefix = prefix
    }

    static func timestamp(_ date: Date = Date()) -> String { timeStyle.format(date) }

    /// An envelope frame with a fresh stream id; `fields` go into `payload`.
    mutating func envelope(
        _ type: String, _ fields: [(String, String)], numbers: [(String, Int)] = [], timestamp: String? = nil
    ) -> String {
        sequence += 1
        var payload = fields.map { "\(Self.quote($0.0)):\(Self.quote($0.1))" }
        payload += numbers.map { "\(Self.quote($0.0)):\($0.1)" }
        payload.append("\"tenantId\":\(Self.quote(tenantId))")
        payload.append("\"timestamp\":\(Self.quote(timestamp ?? Self.timestamp()))")
        return
            "{\"id\":\(Self.quote("\(prefix)-\(sequence)")),"
            + "\"payload\":{\(payload.joined(separator: ","))},\"type\":\(Self.quote(type))}"
    }

    /// The older flat frame: fields at the top level, `ts`, no id.
    func flat(_ type: String, _ fields: [(String, String)], timestamp: String? = nil) -> String {
        var all = fields.map { "\(Self.quote($0.0)):\(Self.quote($0.1))" }
        all.append("\"tenantId\":\(Self.quote(tenantId))")
        all.append("\"ts\":\(Self.quote(timestamp ?? Self.timestamp()))")
        all.append("\"type\":\(Self.quote(type))")
        return "{\(all.joined(separator: ","))}"
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
