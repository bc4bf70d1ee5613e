import RelavoiStream

/// Keyed handlers called in registration order. Re-adding a key replaces
/// its handler in place; handlers may add or remove listeners while being
/// called: a removed or replaced one is not called again for the event in
/// progress, one added during it is first called for the next event.
struct ListenerList<Handler> {
    struct Entry {
        let key: String
        let serial: Int
        let handler: Handler
    }

    private var entries: [Entry] = []
    private var nextSerial = 0
    /// Bumped on every change, so a dispatch can skip checks when nothing changed.
    private var version = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var keys: [String] { entries.map(\.key) }

    mutating func set(_ key: String, _ handler: Handler) {
        nextSerial += 1
        version += 1
        let entry = Entry(key: key, serial: nextSerial, handler: handler)
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    @discardableResult
    mutating func remove(_ key: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return false }
        version += 1
        entries.remove(at: index)
        return true
    }

    mutating func removeAll() {
        version += 1
        entries.removeAll()
    }

    /// A snapshot to iterate (copy-on-write: no copy unless the list
    /// changes meanwhile); check `isStillRegistered` before each call.
    func snapshot() -> (version: Int, entries: [Entry]) {
        (version, entries)
    }

    func isStillRegistered(serial: Int, since snapshotVersion: Int) -> Bool {
        snapshotVersion == version || entries.contains { $0.serial == serial }
    }
}
