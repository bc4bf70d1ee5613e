import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiTestSupport
import XCTest

@testable import RelavoiBanners
@testable import RelavoiSDK

/// The shared delivery driver's view of the notification server, as a test needs
/// it. `bannersAvailable()` answers at once from what the delivery driver last saw,
/// which can still be the previous test's server coming or going (CI once
/// failed HungServerTests on it: "not shown: ... no notification server").
enum BannerServerWait {
    /// Until the delivery driver shows banners on a server `isThisTests` accepts.
    static func untilShowing(
        on isThisTests: @escaping @MainActor (NotificationServerProfile) -> Bool, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        _ = try runOnLoop { await BannerDriver.shared.bannersAvailable() }
        XCTAssertTrue(
            LoopWait.until(timeout: 30) {
                MainActor.assumeIsolated {
                    BannerDriver.shared.isServerAvailable && isThisTests(BannerDriver.shared.serverProfile)
                }
            }, "the delivery driver never saw this test's notification server", file: file, line: line)
    }

    /// Until the delivery driver has seen the test's server go, so that the next
    /// test's is not taken for it.
    static func untilGone(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { MainActor.assumeIsolated { !BannerDriver.shared.isServerAvailable } },
            "the delivery driver never saw the test's server go", file: file, line: line)
    }
}
