import RelavoiCore
import RelavoiNotify
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// A banner on screen is updated in place through libnotify: the update
/// must say what a new notification's show says, posts must only coalesce
/// while the server is stopped, and no notification the server made for an
/// update may stay behind. On python3-dbusmock's server, on the private bus.
final class DeliveryDriverUpdateTests: XCTestCase {
    private var mock: MockNotificationServer!
    private var driver: NotificationDeliveryDriver!

    override func setUpWithError() throws {
        mock = try MockNotificationServer.start()
        let ready = Box(false)
        driver = NotificationDeliveryDriver { event in
            if case .profile = event { ready.update { $0 = true } }
        }
        driver.start()
        try waitFor("the delivery driver has read the server's profile") { ready.value }
    }

    override func tearDown() {
        driver.stop(timeout: 30)
        mock.resume()
        mock.stop()
    }

    private let ringing = BannerContents.ringing
    private func live(_ second: Int) -> NotificationContent { BannerContents.live(second) }

    func testAnUpdateSaysWhatANewNotificationsShowSays() throws {
        driver.post(key: "a", content: ringing)
        try waitFor("the banner is shown") { mock.notifyCalls().count == 1 }
        driver.post(key: "a", content: live(1))  // an update in place
        try waitFor("the banner is updated") { mock.notifyCalls().count == 2 }
        driver.post(key: "b", content: live(1))  // a new notification
        try waitFor("the second banner is shown") { mock.notifyCalls().count == 3 }
        let calls = mock.notifyCalls()
        XCTAssertEqual(calls[1].replacesId, 1, "the update replaces the banner's notification")
        XCTAssertEqual(calls[2].replacesId, 0)
        var update = calls[1]
        update.replacesId = 0
        XCTAssertEqual(update, calls[2], "app name, icon, texts, actions, every hint and the timeout alike")
        XCTAssertEqual(update.actions, ["default", "Open call"])
        XCTAssertEqual(update.hints["urgency"], "byte 0x00")
        XCTAssertNil(update.hints["sound-name"], "hints of the show before do not linger")
    }

    func testPostsWhileTheServerIsStoppedCoalesceAndTheLatestArrives() throws {
        driver.post(key: "a", content: ringing)
        try waitFor("the banner is shown") { mock.notifyCalls().count == 1 }
        mock.pause()
        // The delivery thread waits in libnotify's call; posting does not.
        for second in 1...20 { driver.post(key: "a", content: live(second)) }
        mock.resume()
        try waitFor("the latest content reaches the server") { mock.notifyCalls().last?.body == live(20).body }
        let updates = mock.notifyCalls().dropFirst()
        XCTAssertLessThanOrEqual(
            updates.count, 2, "one update under way, then only the latest: \(updates.map(\.body))")
        XCTAssertTrue(updates.allSatisfy { $0.replacesId == 1 })
    }

    /// A server that makes a new notification for an update (GNOME and mako
    /// do when the old one is gone): the one it replaced is closed, and so
    /// is the new one when the banner closes while the update is under way.
    func testANotificationTheServerMadeForAnUpdateOfAClosedBannerIsClosed() throws {
        driver.post(key: "a", content: ringing)
        try waitFor("the banner is shown") { mock.notifyCalls().count == 1 }
        // From now on the server takes every Notify for a new notification,
        // and answers it late; the banner closes once the update is asked.
        mock.numberEveryNotifyAnew(after: 3)
        driver.post(key: "a", content: live(1))
        try waitFor("the server was asked for the update") { mock.notifyCalls().count == 2 }
        driver.post(key: "a", content: nil)
        try waitFor("every notification the server made is closed: \(mock.closeCalls())") {
            Set(mock.closeCalls()).isSuperset(of: [1, 2])
        }
    }

    /// dunst makes a new notification under the requested id when the old
    /// one is gone: a banner the user dismissed just before its update
    /// arrived would come back. A banner that was updated is closed again
    /// when the server says it closed it.
    func testAnUpdateThatRecreatesADismissedBannerUnderItsIdIsClosed() throws {
        let closed = Box(false)
        driver.stop(timeout: 30)
        driver = NotificationDeliveryDriver { event in
            if case .closed(key: "a", reason: 2, _) = event { closed.update { $0 = true } }
        }
        driver.start()
        driver.post(key: "a", content: ringing)
        try waitFor("the banner is shown") { mock.notifyCalls().count == 1 }
        // The user dismisses the banner just before the update arrives; the
        // server signals it, then takes the update for a new notification
        // under the same id.
        mock.replaceMethod(
            "Notify", in: "susssasa{sv}i", out: "u",
            code: "self.EmitSignal('', 'NotificationClosed', 'uu', [args[1], 2])\nret = args[1]")
        driver.post(key: "a", content: live(1))
        try waitFor("the dismissal is heard") { closed.value }
        try waitFor("the notification the update made again is closed: \(mock.closeCalls())") {
            mock.closeCalls().contains(1)
        }
    }
}
