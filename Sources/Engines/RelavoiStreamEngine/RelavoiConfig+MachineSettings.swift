import RelavoiMachines
import RelavoiStream

extension RelavoiConfig {
    /// The connection machine's timings from this configuration.
    package var machineSettings: StreamConnectionMachine.Settings {
        var settings = StreamConnectionMachine.Settings()
        settings.keepAliveInterval = keepAliveInterval
        settings.halfOpenTimeout = halfOpenTimeout
        settings.connectTimeout = connectTimeout
        settings.stableConnectionInterval = stableConnectionInterval
        settings.unauthorizedRetryInterval = unauthorizedRetryInterval
        settings.rateLimitedRetryMinimum = rateLimitedRetryMinimum
        settings.probeTimeout = probeTimeout
        return settings
    }
}
