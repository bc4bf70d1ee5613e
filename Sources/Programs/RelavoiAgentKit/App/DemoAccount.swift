import RelavoiCore
import RelavoiSettings

extension AgentSettings {
    /// `--demo`: the sandbox's throwaway account and a short linger; the
    /// person's other settings (banners, lock screen, tray) stay.
    mutating func useDemoAccount(_ sandbox: DemoSandbox) {
        baseURL = sandbox.baseURL
        webSocketURL = nil
        apiKey = sandbox.apiKey
        tenantId = sandbox.tenantId
        userPhone = nil
        proxyNumbers = []
        dismissPolicy = .after(seconds: 5)
    }
}
