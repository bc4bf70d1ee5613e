import Foundation
import RelavoiTestSupport

/// python3-dbusmock's notification daemon on the soak's private session bus
/// (the tests' launcher): started, stopped (a "server restart") and asked
/// what it was sent.
@MainActor
final class NotificationMock {
    private var server: MockNotificationServer?
    /// 1, 2, … for each server started; the ledger of each is kept when it stops.
    private(set) var generation = 0

    init() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw SoakError("no session bus (run through scripts/soak.sh)")
        }
    }

    var isRunning: Bool { server?.process.isRunning == true }

    func start() throws {
        generation += 1
        do { server = try MockNotificationServer.launch() } catch {
            throw SoakError("python3-dbusmock's notification daemon did not start: \(error)")
        }
    }

    /// Stops the server; returns what it was sent over its life.
    @discardableResult
    func stop() -> NotificationLedger {
        let ledger = ledger()
        server?.stop()
        server = nil
        return ledger
    }

    /// The server closes notification `id` as expired (reason 1).
    func expire(id: UInt32) { server?.emitClosed(id: id, reason: 1) }

    func ledger() -> NotificationLedger { NotificationLedger(calls: isRunning ? server?.received() ?? [] : []) }
}
