import RelavoiCore
import RelavoiMachines
import RelavoiStreamEngine
import XCTest

@testable import RelavoiSDK
@testable import RelavoiStream

/// `RelavoiConfig()` carries the defaults of the parts that use them: a default
/// edited in `Backoff` or `StreamTimings` is the one apps get, and the one the
/// connection machine gets from a default configuration.
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
