// The SDK from code with no default isolation: nonisolated functions, a
// detached task and an actor of the app's own. Nothing here is main-actor.
import RelavoiSDK

public enum AnyIsolation {
    /// Registers a listener from a detached task (off the main thread).
    public static func attach() async {
        await Task.detached {
            Relavoi.shared.events.addListener("any-isolation") { event in
                if case let .callAnswered(sessionId, _) = event {
                    print("any-isolation: answered \(sessionId)")
                }
            }
        }.value
    }

    /// Every LiveActivityManager call from a nonisolated async function.
    public static func showAndEnd(sessionId: String) async throws {
        let manager = LiveActivityManager()
        try await manager.start(
            sessionId: sessionId, proxyNumber: "+2348000000001", otherPartyLabel: "Rider", verified: false)
        await manager.update(
            state: RelavoiCallAttributes.State(elapsedSeconds: 3, verified: true, otherPartyLabel: "Rider"))
        await manager.end(dismissPolicy: .default)
    }
}

/// An actor of the app's own that asks the stream's state.
public actor ConnectionWatcher {
    public init() {}

    public func isLive() async -> Bool {
        await Relavoi.shared.events.isConnected
    }
}
