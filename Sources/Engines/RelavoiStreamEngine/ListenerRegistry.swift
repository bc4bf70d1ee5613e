import RelavoiCore
import RelavoiGLib
import RelavoiStream

/// The event listeners of one stream (`RelavoiEvents`' or the agent's), behind a lock: any thread
/// may add or remove one, and the change holds at once; the stream calls
/// them on the main actor, in registration order, one event at a time.
package final class ListenerRegistry: @unchecked Sendable {  // `list` only under `lock`
    package typealias Handler = @MainActor (RelavoiEvent) -> Void

    package init() {}

    private let lock = Lock()
    private var list = ListenerList<Handler>()

    package func set(_ key: String, _ handler: @escaping Handler) {
        lock.withLock { list.set(key, handler) }
    }

    package func remove(_ key: String) {
        lock.withLock { _ = list.remove(key) }
    }

    package var keys: [String] { lock.withLock { list.keys } }

    /// Calls every listener with `event`. One removed or replaced by an
    /// earlier handler (on any thread) is not called for it.
    @MainActor
    func deliver(_ event: RelavoiEvent) {
        let (version, entries) = lock.withLock { list.snapshot() }
        for entry in entries {
            guard lock.withLock({ list.isStillRegistered(serial: entry.serial, since: version) }) else { continue }
            entry.handler(event)
        }
    }
}
