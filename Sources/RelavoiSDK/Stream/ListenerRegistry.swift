import RelavoiCore
import RelavoiGLib

/// The event listeners of one `RelavoiEvents`, behind a lock: any thread
/// may add or remove one, and the change holds at once; the stream calls
/// them on the main actor, in registration order, one event at a time.
final class ListenerRegistry: @unchecked Sendable {  // `list` only under `lock`
    enum Handler: Sendable {
        case event(@MainActor (RelavoiEvent) -> Void)
        case frame(@MainActor (RelavoiEvent, String?) -> Void)
    }

    private let lock = Lock()
    private var list = ListenerList<Handler>()

    func set(_ key: String, _ handler: Handler) {
        lock.withLock { list.set(key, handler) }
    }

    func remove(_ key: String) {
        lock.withLock { _ = list.remove(key) }
    }

    var keys: [String] { lock.withLock { list.keys } }

    /// Calls every listener with `event`. One removed or replaced by an
    /// earlier handler (on any thread) is not called for it.
    @MainActor
    func deliver(_ event: RelavoiEvent, id: String?) {
        let (version, entries) = lock.withLock { list.snapshot() }
        for entry in entries {
            guard lock.withLock({ list.isStillRegistered(serial: entry.serial, since: version) }) else { continue }
            switch entry.handler {
            case .event(let handler): handler(event)
            case .frame(let handler): handler(event, id)
            }
        }
    }
}
