import Dispatch
import RelavoiCore
import RelavoiNotify
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// A settled banner's quiet updates go out from the posting thread and are
/// answered on GDBus's (`QuietUpdates`): they must not need the presenter
/// thread, must still hand the presenter what it has to see (a dismissal,
/// a failure), and must not pile up on a server that does not answer. On
/// python3-dbusmock's server, on the private bus.
final class QuietLaneTests: XCTestCase {
    private var mock: MockNotificationServer!
    private var presenter: NotificationPresenter!
    private let events = Box<[NotificationPresenter.Event]>([])

    override func setUpWithError() throws {
        mock = try MockNotificationServer.start()
        presenter = NotificationPresenter { [events] event in events.update { $0.append(event) } }
        presenter.start()
        try waitFor("the presenter has read the server's profile") {
            events.value.contains { if case .profile = $0 { true } else { false } }
        }
    }

    override func tearDown() {
        presenter.stop(timeout: 30)
        mock.resume()
        mock.stop()
    }

    /// Shows the ringing banner, then its first live content (a new click
    /// action: the presenter's), and waits until its lane is open.
    private func settleLiveBanner() throws {
        presenter.post(key: "a", content: BannerContents.ringing)
        try waitFor("the banner is shown") { mock.notifyCalls().count == 1 }
        presenter.post(key: "a", content: BannerContents.live(1))
        try waitFor("the banner's lane is open") { presenter.quietLaneKeys == ["a"] }
        XCTAssertEqual(mock.notifyCalls().count, 2)
    }

    /// Holds the presenter thread until the returned closure is called.
    private func holdPresenterThread() throws -> () -> Void {
        let held = Box(false)
        let release = DispatchSemaphore(value: 0)
        presenter.flush {
            held.update { $0 = true }
            release.wait()
        }
        try waitFor("the presenter thread is held") { held.value }
        var released = false
        return {
            guard !released else { return }
            released = true
            release.signal()
        }
    }

    func testTicksOfASettledBannerGoOutWhileThePresenterThreadIsBusy() throws {
        try settleLiveBanner()
        let release = try holdPresenterThread()
        defer { release() }
        for second in 2...4 {
            presenter.post(key: "a", content: BannerContents.live(second))
            try waitFor("tick \(second) reaches the server without the presenter thread") {
                mock.notifyCalls().last?.body == BannerContents.live(second).body
            }
        }
        let updates = mock.notifyCalls().dropFirst()
        XCTAssertTrue(updates.allSatisfy { $0.replacesId == 1 }, "each replaces the banner's notification")
        XCTAssertEqual(updates.map(\.body), (1...4).map { BannerContents.live($0).body })
    }

    func testANewClickActionIsThePresentersAndShutsTheLane() throws {
        try settleLiveBanner()
        var ended = BannerContents.live(2)
        ended.defaultAction = "Call back"
        let release = try holdPresenterThread()
        presenter.post(key: "a", content: ended)
        presenter.post(key: "a", content: BannerContents.live(3))
        XCTAssertTrue(presenter.quietLaneKeys.isEmpty, "the lane is shut while the presenter has work for it")
        XCTAssertEqual(mock.notifyCalls().count, 2, "nothing goes out before the presenter has seen the new action")
        release()
        try waitFor("the latest reaches the server") {
            mock.notifyCalls().last?.body == BannerContents.live(3).body
        }
        try waitFor("the lane opens again") { presenter.quietLaneKeys == ["a"] }
        XCTAssertEqual(
            mock.notifyCalls().map(\.body),
            [BannerContents.ringing, BannerContents.live(1), BannerContents.live(3)].map(\.body),
            "only the presenter's latest went out after the lane was shut")
    }

    func testTicksWaitForAStoppedServerAndOnlyTheLatestFollows() throws {
        try settleLiveBanner()
        mock.pause()
        for second in 2...20 { presenter.post(key: "a", content: BannerContents.live(second)) }
        mock.resume()
        try waitFor("the latest content reaches the server") {
            mock.notifyCalls().last?.body == BannerContents.live(20).body
        }
        let updates = mock.notifyCalls().dropFirst(2)
        XCTAssertEqual(
            updates.map(\.body), [2, 20].map { BannerContents.live($0).body }, "one under way, then the latest")
    }

    /// dunst makes a dismissed notification again under the requested id: a
    /// tick that reaches it just after the user's dismissal would bring the
    /// banner back. The dismissal comes first; the tick's notification is closed.
    /// (GDBus hands the signal to libnotify on the presenter's context before
    /// the filter hands the answer over there: both idles, in message order.)
    func testATickThatRecreatesADismissedBannerIsClosed() throws {
        try settleLiveBanner()
        mock.replaceMethod(
            "Notify", in: "susssasa{sv}i", out: "u",
            code: "self.EmitSignal('', 'NotificationClosed', 'uu', [args[1], 2])\nret = args[1]")
        presenter.post(key: "a", content: BannerContents.live(2))
        try waitFor("the dismissal is heard") {
            events.value.contains(.closed(key: "a", reason: 2))
        }
        try waitFor("the notification the tick made again is closed: \(mock.closeCalls())") {
            mock.closeCalls().contains(1)
        }
        XCTAssertTrue(presenter.quietLaneKeys.isEmpty)
    }

    func testATickTheServerRefusesIsShownAgainInFull() throws {
        try settleLiveBanner()
        mock.replaceMethod(
            "Notify", in: "susssasa{sv}i", out: "u",
            code: """
                self.refused = getattr(self, 'refused', 0) + 1
                if self.refused == 1:
                    raise dbus.exceptions.DBusException('busy', name='org.freedesktop.DBus.Error.Failed')
                ret = args[1]
                """)
        presenter.post(key: "a", content: BannerContents.live(2))
        try waitFor("the refused tick is sent again by the presenter's retry") {
            mock.notifyCalls().filter { $0.body == BannerContents.live(2).body }.count == 2
        }
        try waitFor("the lane opens again") { presenter.quietLaneKeys == ["a"] }
        presenter.post(key: "a", content: BannerContents.live(3))
        try waitFor("later ticks follow") { mock.notifyCalls().last?.body == BannerContents.live(3).body }
    }

    func testANewServerGetsTheBannerAnewNotATick() throws {
        try settleLiveBanner()
        mock.stop()
        try waitFor("the server is gone") { events.value.contains(.availability(false)) }
        XCTAssertTrue(presenter.quietLaneKeys.isEmpty, "no lane to a server that went away")
        mock = try MockNotificationServer.start()
        presenter.post(key: "a", content: BannerContents.live(2))
        try waitFor("the latest is shown on the new server") {
            mock.notifyCalls().last?.body == BannerContents.live(2).body
        }
        XCTAssertEqual(mock.notifyCalls().first?.replacesId, 0, "a new notification, not an update of an old id")
    }
}
