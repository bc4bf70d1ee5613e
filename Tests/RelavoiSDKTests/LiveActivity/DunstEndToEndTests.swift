import Foundation
import RelavoiBanners
import RelavoiGLib
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

@testable import RelavoiSDK

/// The banner on dunst, a real notification server under Xvfb: what a person sees.
final class DunstEndToEndTests: XCTestCase {
    func testBannerTicksInPlaceOnDunstAndUserDismissalIsReported() throws {
        let dunst = try DunstServer.start()
        defer {
            dunst.stop()
            BannerServerWait.untilGone()
        }
        try BannerServerWait.untilShowing { $0.family == .dunst }
        XCTAssertTrue(try runOnLoop { await BannerDriver.shared.bannersAvailable() })

        let ticks = Recorder()
        MainActor.assumeIsolated { BannerDriver.shared.addTickObserver(wantsSeconds: { false }) { ticks.tick() } }
        let dismissed = ResultBox<String>()
        let manager = try RealServerSteps.startCall("ses_dunst", label: "Chowdeck rider", dismissed: dismissed)
        XCTAssertTrue(LoopWait.until(timeout: 30) { dunst.displayedCount() == 1 })
        // Two ticks later: still one notification, nothing in history.
        try RealServerSteps.waitForTwoTicks(ticks)
        XCTAssertEqual(dunst.displayedCount(), 1, "ticks update in place")
        XCTAssertEqual(dunst.historyCount(), 0)
        RealServerSteps.checkScreenshot(named: "dunst", dunst.screenshot(to:))

        dunst.userClose()
        XCTAssertTrue(LoopWait.until(timeout: 30) { dismissed.result != nil }, "dismissal reaches the owner")
        XCTAssertEqual(try dismissed.result?.get(), "ses_dunst")
        XCTAssertFalse(MainActor.assumeIsolated { manager.isActive })
        // A marker banner keeps the timer going: two ticks later only the marker is on screen.
        let marker = try RealServerSteps.startCall("ses_marker", label: "Marker", proxyNumber: "+1999")
        XCTAssertTrue(LoopWait.until(timeout: 30) { dunst.displayedCount() == 1 }, "the marker shows")
        try RealServerSteps.waitForTwoTicks(ticks)
        XCTAssertEqual(dunst.displayedCount(), 1, "no tick shows the dismissed banner again")
        try runOnLoop { await marker.end() }
        XCTAssertTrue(LoopWait.until(timeout: 30) { dunst.displayedCount() == 0 })
    }
}
