import RelavoiClient
import RelavoiDBus
import RelavoiGLib

/// Starts the agent as the session would: the user unit (`systemctl --user start
/// relavoi-agent`), else D-Bus activation of `com.relavoi.Agent`.
@MainActor
package enum AgentStarter {
    package static func start(bus: BusConnection, done: @escaping @MainActor (Bool) -> Void) {
        if bus.nameHasOwner(AgentBus.name) { return done(true) }
        ProgramRun.run(["systemctl", "--user", "start", "relavoi-agent.service"]) { status in
            if status == 0 {
                Log.info("started relavoi-agent.service")
                return done(true)
            }
            bus.callAsync(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "StartServiceByName", arguments: [.string(AgentBus.name), .uint32(0)],
                timeoutMilliseconds: 25000
            ) { result in
                switch result {
                case .success: done(true)
                case .failure(let error):
                    Log.warning("cannot start the agent (systemctl --user, then D-Bus activation): \(error)")
                    done(false)
                }
            }
        }
    }
}
