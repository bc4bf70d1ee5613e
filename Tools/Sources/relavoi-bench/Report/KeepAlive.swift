import Foundation
import RelavoiCore
import RelavoiMachines
import RelavoiSDK
import RelavoiSandboxKit

/// What an idle agent must wake up for: its heartbeat timer (which sends the
/// text ping and checks for a half-open socket), the pong that answers the
/// ping, and the server's WebSocket pings. Anything above is not keep-alive.
enum KeepAlive {
    static var heartbeatSeconds: Double {
        let config = RelavoiConfig()
        var settings = StreamConnectionMachine.Settings()
        settings.keepAliveInterval = config.keepAliveInterval
        settings.halfOpenTimeout = config.halfOpenTimeout
        settings.connectTimeout = config.connectTimeout
        return settings.heartbeatPeriod
    }

    static var pingSeconds: Double { RelavoiConfig().keepAliveInterval }
    static var serverPingSeconds: Double { SandboxServer.Options().pingInterval }

    /// Most keep-alive wakeups a window of `seconds` can hold, per second.
    static func budgetPerSecond(window seconds: Double) -> Double {
        let events =
            (seconds / heartbeatSeconds).rounded(.up) + (seconds / pingSeconds).rounded(.up)
            + (seconds / serverPingSeconds).rounded(.up)
        return events / seconds
    }

    static var description: String {
        "heartbeat every \(format(heartbeatSeconds)) s, text ping every \(format(pingSeconds)) s, "
            + "server ping every \(format(serverPingSeconds)) s"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
