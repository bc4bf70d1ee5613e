import Foundation
import RelavoiBanners
import RelavoiGLib
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

@testable import RelavoiSDK

/// The banner on dunst, a real notification server under Xvfb: what a person sees.
final class DunstEndToEndTests: XCTestCase {
    /// Waits for two more ticks of the banners' timer, then until dunst has
    /// every update they made.
    private func waitForTwoTicks(_ ticks: Recorder, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = ticks.count
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { ticks.count >= before + 2 }, "the timer did not tick", file: file,
            line: line)
        try runOnLoop { await BannerDriver.shared.flush() }
    }

    func testBannerTicksInPlaceOnDunstAndUserDismissalIsReported() throws {
        let dunst = try DunstServer.start()
        defer {
            dunst.stop()
            BannerServerWait.untilGone()
        }
        try BannerServerWait.untilShowing { $0.family == .dunst }
        XCTAssertTrue(try runOnLoop { await BannerDriver.shared.bannersAvailable() })

        let ticks = Recorder()
        MainActor.assumeIsolated { BannerDriver.shared.addTickObserver { ticks.tick() } }
        let dismissed = ResultBox<String>()
        let manager = try runOnLoop {
            let manager = LiveActivityManager()
            manager.onDismissed = { dismissed.set(.success($0)) }
            try await manager.start(
                sessionId: "ses_dunst", proxyNumber: "+2348000000001", otherPartyLabel: "Chowdeck rider", verified: true
            )
            return manager
        }
        XCTAssertTrue(LoopWait.until(timeout: 30) { dunst.displayedCount() == 1 })
        // Two ticks later: still one notification, nothing in history.
        try waitForTwoTicks(ticks)
        XCTAssertEqual(dunst.displayedCount(), 1, "ticks update in place")
        XCTAssertEqual(dunst.historyCount(), 0)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-dunst-\(getpid()).png").path
        XCTAssertTrue(dunst.screenshot(to: shot))
        XCTAssertGreaterThan((try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0, 1000)
        try? FileManager.default.removeItem(atPath: shot)

        dunst.userClose()
        XCTAssertTrue(LoopWait.until(timeout: 30) { dismissed.result != nil }, "dismissal reaches the owner")
        XCTAssertEqual(try dismissed.result?.get(), "ses_dunst")
        XCTAssertFalse(MainActor.assumeIsolated { manager.isActive })
        // A marker banner keeps the timer going: two ticks later only the marker is on screen.
        let marker = try runOnLoop {
            let marker = LiveActivityManager()
            try await marker.start(
                sessionId: "ses_marker", proxyNumber: "+1999", otherPartyLabel: "Marker", verified: true)
            return marker
        }
        XCTAssertTrue(LoopWait.until(timeout: 30) { dunst.displayedCount() == 1 }, "the marker shows")
        try waitForTwoTicks(ticks)
        XCTAssertEqual(dunst.displayedCount(), 1, "no tick shows the dismissed banner again")
        try runOnLoop { await marker.end() }
        XCTAssertTrue(LoopWait.until(timeout: 30) { dunst.displayedCount() == 0 })
    }
}
