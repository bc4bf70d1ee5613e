import Foundation
import RelavoiGLib
import RelavoiSDK
import RelavoiTestSupport
import XCTest

/// The banner on dunst, a real notification server under Xvfb: what a person sees.
final class DunstEndToEndTests: XCTestCase {
    func testBannerTicksInPlaceOnDunstAndUserDismissalIsReported() throws {
        let dunst = try DunstServer.start()
        defer { dunst.stop() }
        XCTAssertTrue(try runOnLoop { await BannerDriver.shared.bannersAvailable() })
        XCTAssertTrue(
            MainLoop.iterate(timeout: 5) {
                MainActor.assumeIsolated { BannerDriver.shared.serverProfile.family == .dunst }
            })

        let dismissed = ResultBox<String>()
        let manager = try runOnLoop {
            let manager = LiveActivityManager()
            manager.onDismissed = { dismissed.set(.success($0)) }
            try await manager.start(
                sessionId: "ses_dunst", proxyNumber: "+2348000000001", otherPartyLabel: "Chowdeck rider", verified: true
            )
            return manager
        }
        XCTAssertTrue(MainLoop.iterate(timeout: 5) { dunst.displayedCount() == 1 })
        // Let it tick a few times: still one notification, nothing in history.
        MainLoop.iterate(timeout: 2.5) { false }
        XCTAssertEqual(dunst.displayedCount(), 1, "ticks update in place")
        XCTAssertEqual(dunst.historyCount(), 0)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-dunst-\(getpid()).png").path
        XCTAssertTrue(dunst.screenshot(to: shot))
        XCTAssertGreaterThan((try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0, 1000)
        try? FileManager.default.removeItem(atPath: shot)

        dunst.userClose()
        XCTAssertTrue(MainLoop.iterate(timeout: 5) { dismissed.result != nil }, "dismissal reaches the owner")
        XCTAssertEqual(try dismissed.result?.get(), "ses_dunst")
        MainLoop.iterate(timeout: 1.5) { false }
        XCTAssertEqual(dunst.displayedCount(), 0, "no tick shows it again")
        XCTAssertFalse(MainActor.assumeIsolated { manager.isActive })
    }
}
