import Foundation
import RelavoiSDK
import RelavoiSandboxKit

/// What an idle agent must wake up for: the stream's one timer, set to the
/// next text ping (its half-open deadline comes later while pongs arrive), the
/// pong that answers the ping, and the server's WebSocket pings. Anything
/// above is not keep-alive.
enum KeepAlive {
    static var pingSeconds: Double { RelavoiConfig().keepAliveInterval }
    static var serverPingSeconds: Double { SandboxServer.Options().pingInterval }

    /// Most keep-alive wakeups a window of `seconds` can hold, per second.
    static func budgetPerSecond(window seconds: Double) -> Double {
        let events = 2 * (seconds / pingSeconds).rounded(.up) + (seconds / serverPingSeconds).rounded(.up)
        return events / seconds
    }

    static var description: String {
        "text ping every \(format(pingSeconds)) s (the stream's one timer, then its pong), "
            + "server ping every \(format(serverPingSeconds)) s"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
