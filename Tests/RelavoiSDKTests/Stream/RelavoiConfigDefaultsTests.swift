import RelavoiCore
import RelavoiMachines
import RelavoiStreamEngine
import XCTest

@testable import RelavoiSDK
@testable import RelavoiStream

/// `RelavoiConfig()` carries the defaults of the parts that use them: a default
/// edited in `Backoff` is the one apps get, and one edited in the connection
/// machine's settings (which RelavoiStream cannot see) fails here until
/// `RelavoiConfig` has it too.
final class RelavoiConfigDefaultsTests: XCTestCase {
    func testDefaultsAreThoseOfTheStreamParts() {
        let config = RelavoiConfig()
        XCTAssertEqual(config.machineSettings, StreamConnectionMachine.Settings.standard)
        XCTAssertEqual(config.backoffBase, Backoff().base)
        XCTAssertEqual(config.backoffCap, Backoff().cap)
        XCTAssertEqual(config.backoffJitter, Backoff().jitter)
        XCTAssertEqual(config.tokenRefreshLead, TokenRefreshSchedule.defaultLead)
        XCTAssertEqual(config.dedupeCapacity, EventDeduplicator.defaultCapacity)
    }

    func testTheDocumentedProductionSchedule() {
        // RelavoiConfig's documentation ("doubles per failure up to", "within 50 s") rests on these.
        let config = RelavoiConfig()
        XCTAssertEqual(config.backoffBase, 0.5)
        XCTAssertEqual(config.backoffCap, 30)
        XCTAssertEqual(config.keepAliveInterval, 20)
        XCTAssertEqual(config.halfOpenTimeout, 40)
    }
}
