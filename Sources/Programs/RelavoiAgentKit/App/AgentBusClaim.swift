import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n

/// One agent per session bus: it registers the control interface, then owns
/// `com.relavoi.Agent` (so D-Bus activation callers find the object at once).
@MainActor
enum AgentBusClaim {
    enum Outcome {
        case claimed(ControlService, AgentBusName)
        /// The agent does not run: exit with `code` (0 when another agent runs).
        case exit(code: Int32)
        /// The demo runs on without the interface (an agent owns the name).
        case demoWithoutBus
    }

    static func claim(
        callDriver: CallDriver, phrases: BannerPhrases, lockScreen: LockScreenPrivacy, health: ConnectionHealth,
        demo: Bool, onNameLost: @escaping @MainActor () -> Void
    ) -> Outcome {
        let connection: BusConnection
        do {
            connection = try BusConnection.session()
        } catch {
            // Without a session bus no banner can show: the demo playing its call
            // to nobody would pass for a demo that worked.
            let demoNote =
                demo ? " (the demo's banner needs a desktop's notification server; make demo starts one)" : ""
            StandardStreams.error("relavoi-agent: no D-Bus session bus: \(error)\(demoNote)\n")
            return .exit(code: 1)
        }
        let service = ControlService(
            connection: connection, control: callDriver, phrases: phrases, lockScreen: lockScreen, health: health)
        do {
            try service.register()
        } catch {
            StandardStreams.error("relavoi-agent: \(error)\n")
            return .exit(code: 1)
        }
        let outcome = AgentBusName.acquire(on: connection) { reason in
            Log.message("lost the bus name \(AgentBus.name) (\(reason)); stopping")
            onNameLost()
        }
        switch outcome {
        case .acquired(let name):
            return .claimed(service, name)
        case .alreadyRunning:
            service.unregister()
            if demo {
                Log.message("demo: an agent already owns \(AgentBus.name); the demo runs without the D-Bus interface")
                return .demoWithoutBus
            }
            print(L("relavoi-agent is already running in this session"))
            return .exit(code: 0)
        case .noBus(let message):
            service.unregister()
            StandardStreams.error("relavoi-agent: \(message)\n")
            return .exit(code: 1)
        }
    }
}
