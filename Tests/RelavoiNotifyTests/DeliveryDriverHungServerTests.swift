import RelavoiCore
import RelavoiNotify
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// A notification server that hangs through a banner's first show: libnotify's
/// call gives up after GDBus's 25 s, and the server carries it out once it runs
/// again. The banner then takes that notification (its latest content goes
/// there), or has it closed when it ended meanwhile: one notification, one ring,
/// nothing left behind. On python3-dbusmock's server, stopped with SIGSTOP; each
/// test waits out the real 25 s timeout (libnotify has no shorter one).
final class DeliveryDriverHungServerTests: XCTestCase {
    private var mock: MockNotificationServer!
    private var driver: NotificationDeliveryDriver!

    override func setUpWithError() throws {
        LogCapture.start()
        mock = try MockNotificationServer.start()
        let ready = Box(false)
        driver = NotificationDeliveryDriver { event in
            if case .profile = event { ready.update { $0 = true } }
        }
        driver.start()
        try waitFor("the delivery driver has read the server's profile") { ready.value }
    }

    override func tearDown() {
        mock.resume()
        driver.stop(timeout: 30)
        mock.stop()
    }

    /// Stops the server, posts `ringing` and waits until its show goes unanswered.
    private func ringWhileTheServerHangs() throws -> Int {
        let mark = LogCapture.mark
        mock.pause()
        driver.post(key: "a", content: BannerContents.ringing)
        try waitFor("the show goes unanswered (GDBus's 25 s)", seconds: 90) {
            LogCapture.lines(from: mark).contains { $0.1.contains("no answer to a banner's show in time") }
        }
        return mark
    }

    func testTheLateNotificationIsTakenAndTheLiveCallGoesThere() throws {
        let mark = try ringWhileTheServerHangs()
        driver.post(key: "a", content: BannerContents.live(30))
        mock.resume()
        try waitFor("the live call reaches the server") {
            mock.notifyCalls().last?.body == BannerContents.live(30).body
        }
        let calls = mock.notifyCalls()
        XCTAssertEqual(
            calls.map(\.replacesId), [0, 1],
            "one notification, the one the server made late, updated in place: \(calls.map(\.summary))")
        XCTAssertEqual(calls.filter { $0.hints["sound-name"] != nil }.count, 1, "it rings once")
        XCTAssertEqual(mock.closeCalls(), [])
        XCTAssertTrue(
            LogCapture.lines(from: mark).contains { $0.1.contains("notification server answers again") },
            "the recovery is logged")
    }

    func testTheLateNotificationOfACallThatEndedMeanwhileIsClosed() throws {
        _ = try ringWhileTheServerHangs()
        driver.post(key: "a", content: nil)
        mock.resume()
        try waitFor("the notification the server made late is closed") { mock.closeCalls() == [1] }
        XCTAssertEqual(mock.notifyCalls().count, 1, "nothing is shown again")
    }
}
