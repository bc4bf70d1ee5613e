import Foundation
import RelavoiBanners
import RelavoiGLib
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

@testable import RelavoiSDK

/// The banner on mako under a headless sway, the wlroots desktops' server:
/// what a person sees there.
final class MakoEndToEndTests: XCTestCase {
    func testBannerTicksInPlaceOnMakoAndTheDismissalReachesTheOwner() throws {
        let mako = try MakoServer.start()
        defer {
            mako.stop()
            BannerServerWait.untilGone()
        }
        try BannerServerWait.untilShowing { $0.family == .mako }

        let ticks = Recorder()
        MainActor.assumeIsolated { BannerDriver.shared.addTickObserver(wantsSeconds: { false }) { ticks.tick() } }
        let dismissed = ResultBox<String>()
        let manager = try RealServerSteps.startCall("ses_mako", label: "Chowdeck rider", dismissed: dismissed)
        XCTAssertTrue(LoopWait.until(timeout: 30) { mako.shown()?.count == 1 }, "\(mako.shown() ?? [])")
        guard let first = mako.shown()?.first else { return }
        XCTAssertTrue((first.summary + first.body).contains("Chowdeck rider"), "\(first)")

        // Ticks change the text of the same notification: one entry, one id.
        try RealServerSteps.waitForTwoTicks(ticks)
        let ticked = mako.shown() ?? []
        XCTAssertEqual(ticked.map(\.id), [first.id], "ticks update in place: \(ticked)")
        XCTAssertNotEqual(ticked.first.map { $0.summary + $0.body }, first.summary + first.body, "the timer moved")

        RealServerSteps.checkScreenshot(named: "mako", mako.screenshot(to:))

        // The person's dismissal (reason 2) reaches the owner, and no tick brings it back.
        mako.dismiss(id: first.id)
        XCTAssertTrue(LoopWait.until(timeout: 30) { dismissed.result != nil }, "dismissal reaches the owner")
        XCTAssertEqual(try dismissed.result?.get(), "ses_mako")
        XCTAssertFalse(MainActor.assumeIsolated { manager.isActive })
        let marker = try RealServerSteps.startCall("ses_marker", label: "Marker", proxyNumber: "+1999")
        XCTAssertTrue(LoopWait.until(timeout: 30) { mako.shown()?.count == 1 }, "the marker shows")
        try RealServerSteps.waitForTwoTicks(ticks)
        let left = mako.shown() ?? []
        XCTAssertEqual(left.count, 1, "only the marker: \(left)")
        XCTAssertTrue(left.allSatisfy { ($0.summary + $0.body).contains("Marker") }, "\(left)")
        try runOnLoop { await marker.end() }
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { mako.shown()?.isEmpty == true }, "nothing sticks: \(mako.shown() ?? [])")
    }
}
