import RelavoiClient
import RelavoiDBus

/// One agent per session bus: `com.relavoi.Agent`, owned without queueing.
///
/// Export the `ControlService` first, then acquire the name, so a caller
/// that D-Bus activation started the agent for finds the object as soon as
/// the name appears. A second agent started with `replace: true` takes the
/// name over, and this one hears `onLost(.replaced)` and should exit.
public typealias AgentBusName = BusNameOwner

extension BusNameOwner {
    /// Asks for `AgentBus.name` (see `BusNameOwner.acquire(on:name:replace:timeout:onLost:)`).
    public static func acquire(
        on connection: BusConnection, replace: Bool = false, timeout: Double = 10,
        onLost: @escaping @MainActor (LossReason) -> Void
    ) -> Outcome {
        acquire(on: connection, name: AgentBus.name, replace: replace, timeout: timeout, onLost: onLost)
    }
}
