import RelavoiCore
import RelavoiNotify
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// A notification server that hangs through a banner's first show: libnotify's
/// call gives up after GDBus's 25 s, and the server carries it out once it runs
/// again. The banner then takes that notification (its latest content goes
/// there), or has it closed when it ended meanwhile: one notification, one ring,
/// nothing left behind. On python3-dbusmock's server and on dunst, stopped with
/// SIGSTOP; each test waits out the real 25 s timeout (libnotify has no shorter one).
final class DeliveryDriverHungServerTests: XCTestCase {
    private var driver: NotificationDeliveryDriver?
    /// Resumes and stops the server.
    private var stopServer: (() -> Void)?

    override func setUp() {
        LogCapture.start()
    }

    override func tearDown() {
        driver?.stop(timeout: 30)
        stopServer?()
    }

    /// A delivery driver that has read the server's profile.
    private func startDriver() throws -> NotificationDeliveryDriver {
        let ready = Box(false)
        let driver = NotificationDeliveryDriver { event in
            if case .profile = event { ready.update { $0 = true } }
        }
        self.driver = driver
        driver.start()
        try waitFor("the delivery driver has read the server's profile") { ready.value }
        return driver
    }

    /// Posts `ringing` while the server is stopped (`pause`) and waits until its show goes unanswered.
    private func ring(on driver: NotificationDeliveryDriver, whileStopped pause: () -> Void) throws -> Int {
        let mark = LogCapture.mark
        pause()
        driver.post(key: "a", content: BannerContents.ringing)
        try waitFor("the show goes unanswered (GDBus's 25 s)", seconds: 90) {
            LogCapture.lines(from: mark).contains { $0.1.contains("no answer to a banner's show in time") }
        }
        return mark
    }

    func testTheLateNotificationIsTakenAndTheLiveCallGoesThere() throws {
        let mock = try MockNotificationServer.start()
        stopServer = {
            mock.resume()
            mock.stop()
        }
        let driver = try startDriver()
        let mark = try ring(on: driver, whileStopped: mock.pause)
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

    /// On dunst: what it shows in the end, not only what it was sent.
    func testTheLateNotificationOfACallThatEndedMeanwhileIsClosed() throws {
        let dunst = try DunstServer.start()
        stopServer = dunst.stop
        let driver = try startDriver()
        _ = try ring(on: driver, whileStopped: dunst.pause)
        driver.post(key: "a", content: nil)
        dunst.resume()
        // dunst keeps a notification closed by its app in its history.
        try waitFor("the notification dunst made late is closed: \(String(describing: dunst.displayedCount())) shown") {
            dunst.historyCount() == 1 && dunst.displayedCount() == 0
        }
    }
}
