import Foundation
import RelavoiBanners
import RelavoiCore
import RelavoiGLib
import RelavoiSettings
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

@testable import RelavoiSDK

/// LiveActivityManager against python3-dbusmock's notification daemon on a
/// private session bus. Synchronous tests: the test thread drives the GLib loop.
final class LiveActivityManagerTests: XCTestCase {
    private var mock: MockNotificationServer!

    override func setUpWithError() throws {
        mock = try MockNotificationServer.start()
        // The delivery driver must have seen this server (a new one each test).
        try waitForServer()
    }

    override func tearDown() {
        _ = try? runOnLoop {
            BannerDriver.shared.closeAll()
            await BannerDriver.shared.flush()
        }
        mock?.stop()
        mock = nil
        BannerServerWait.untilGone()
    }

    private func waitForServer() throws {
        try BannerServerWait.untilShowing { $0.name == "mock-notify" }
    }

    private func waitForNotify(count: Int, timeout: Double = 30) -> [MockNotificationServer.NotifyCall] {
        var calls: [MockNotificationServer.NotifyCall] = []
        LoopWait.until(timeout: timeout) {
            calls = self.mock.notifyCalls()
            return calls.count >= count
        }
        return calls
    }

    /// Notify calls for the banner with this summary.
    private func notifyCalls(of summary: String) -> [MockNotificationServer.NotifyCall] {
        mock.notifyCalls().filter { $0.summary == summary }
    }

    /// Starts a marker banner and waits for its second tick. The banners
    /// tick on one 1 Hz timer: by then a tick that an earlier banner should
    /// not have made has reached the server too.
    private func waitForAMarkerToTickTwice(file: StaticString = #filePath, line: UInt = #line) throws {
        try runOnLoop {
            let marker = LiveActivityManager()
            try await marker.start(
                sessionId: "ses_marker", proxyNumber: "+1999", otherPartyLabel: "Marker", verified: true)
            keep(marker)
        }
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { self.notifyCalls(of: "Marker").contains { ($0.timerSeconds ?? -1) >= 2 } },
            "the marker banner did not tick twice: \(mock.notifyCalls().map(\.body))", file: file, line: line)
    }

    /// No Notify for the banner with this summary from now on, checked once a
    /// marker banner has ticked twice. Counted after a flush: a tick that was
    /// on its way when the banner ended (or was dismissed) is not a new one.
    private func assertNoMoreNotify(
        of summary: String, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try runOnLoop { await BannerDriver.shared.flush() }
        let count = notifyCalls(of: summary).count
        try waitForAMarkerToTickTwice(file: file, line: line)
        XCTAssertEqual(notifyCalls(of: summary).count, count, message, file: file, line: line)
    }

    func testStartShowsBannerWithExactNotifyArguments() throws {
        try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(
                sessionId: "ses_1", proxyNumber: "+2348000000001", otherPartyLabel: "Chowdeck rider", verified: true)
            keep(manager)
        }
        let calls = waitForNotify(count: 1)
        let first = try XCTUnwrap(calls.first)
        // No Relavoi.initialize here: the banners are the host process's (this test runner's).
        XCTAssertEqual(first.appName, HostApplication.name)
        XCTAssertNotEqual(first.appName, "Relavoi")
        XCTAssertEqual(first.replacesId, 0)
        XCTAssertEqual(first.summary, "Chowdeck rider")
        XCTAssertEqual(first.body, "+2348000000001, 00:00\nVerified")
        XCTAssertTrue(
            first.icon.hasSuffix("com.relavoi.Agent-verified.svg") || first.icon == "com.relavoi.Agent-verified")
        XCTAssertEqual(first.hints["category"], "call")
        XCTAssertEqual(first.hints["desktop-entry"], HostApplication.id)
        XCTAssertEqual(first.hints["resident"], "true")
        XCTAssertEqual(first.hints["urgency"], "byte 0x01")
        XCTAssertEqual(first.timeout, 0, "never expires while the call runs")
    }

    func testTimerTicksEverySecondInPlaceWithTheSameId() throws {
        try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(
                sessionId: "ses_tick", proxyNumber: "+15550001", otherPartyLabel: "Rider", verified: false)
            keep(manager)
        }
        let calls = waitForNotify(count: 3, timeout: 6)
        XCTAssertGreaterThanOrEqual(calls.count, 3)
        XCTAssertEqual(calls[0].replacesId, 0)
        // Every later call replaces the id the server gave the first one.
        XCTAssertTrue(calls.dropFirst().allSatisfy { $0.replacesId == 1 }, "\(calls.map(\.replacesId))")
        XCTAssertEqual(calls[1].body, "+15550001, 00:01\n<b>⚠ Unverified</b>")
        XCTAssertEqual(calls[2].body, "+15550001, 00:02\n<b>⚠ Unverified</b>")
        XCTAssertEqual(Set(calls.map(\.summary)), ["Rider"])
    }

    func testImmediateEndClosesAtOnceAndStopsTheTimer() throws {
        let manager = try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_end", proxyNumber: "+1555", otherPartyLabel: "A", verified: true)
            return manager
        }
        _ = waitForNotify(count: 1)
        try runOnLoop {
            await manager.end()
            XCTAssertFalse(manager.isActive)
        }
        XCTAssertTrue(LoopWait.until(timeout: 30) { self.mock.closeCalls() == [1] }, "\(mock.closeCalls())")
        XCTAssertFalse(MainActor.assumeIsolated { BannerDriver.shared.isTimerRunning }, "no banner, no timer")
        try assertNoMoreNotify(of: "A", "no tick after the end")
    }

    func testEndAfterDateShowsEndedStateThenCloses() throws {
        try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_after", proxyNumber: "+1555", otherPartyLabel: "B", verified: true)
            await manager.end(dismissPolicy: .after(Date().addingTimeInterval(1.5)))
            keep(manager)
        }
        var ended: MockNotificationServer.NotifyCall?
        LoopWait.until(timeout: 5) {
            ended = self.mock.notifyCalls().last
            return ended?.hints["category"] == "call.ended"
        }
        let endedCall = try XCTUnwrap(ended)
        XCTAssertEqual(endedCall.hints["category"], "call.ended")
        XCTAssertNil(endedCall.hints["resident"])
        XCTAssertEqual(endedCall.timeout, -1)
        XCTAssertTrue(endedCall.body.hasPrefix("Call ended, 00:00"), endedCall.body)
        XCTAssertEqual(mock.closeCalls(), [], "not closed before the date")
        XCTAssertTrue(LoopWait.until(timeout: 5) { self.mock.closeCalls() == [1] })
    }

    func testDefaultPolicyKeepsEndedBannerWithServerTimeout() throws {
        try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_def", proxyNumber: "+1555", otherPartyLabel: "C", verified: false)
            await manager.end(dismissPolicy: .default)
            keep(manager)
        }
        XCTAssertTrue(LoopWait.until(timeout: 30) { self.mock.notifyCalls().last?.hints["category"] == "call.ended" })
        let ended = try XCTUnwrap(mock.notifyCalls().last)
        XCTAssertEqual(ended.timeout, -1)
        try assertNoMoreNotify(of: "C", "an ended banner does not tick")
        XCTAssertTrue(mock.closeCalls().isEmpty)
    }

    func testUserDismissalStaysDismissedAndIsReported() throws {
        let dismissed = ResultBox<String>()
        try runOnLoop {
            let manager = LiveActivityManager()
            manager.onDismissed = { dismissed.set(.success($0)) }
            try await manager.start(
                sessionId: "ses_dismiss", proxyNumber: "+1555", otherPartyLabel: "D", verified: true)
            keep(manager)
        }
        _ = waitForNotify(count: 1)
        mock.emitClosed(id: 1, reason: 2)
        XCTAssertTrue(LoopWait.until(timeout: 30) { dismissed.result != nil })
        XCTAssertEqual(try dismissed.result?.get(), "ses_dismiss")
        try assertNoMoreNotify(of: "D", "no tick shows a dismissed banner again")
    }

    func testSeveralManagersRunSideBySide() throws {
        try runOnLoop {
            let first = LiveActivityManager()
            let second = LiveActivityManager()
            try await first.start(sessionId: "ses_a", proxyNumber: "+1", otherPartyLabel: "First", verified: true)
            try await second.start(sessionId: "ses_b", proxyNumber: "+2", otherPartyLabel: "Second", verified: false)
            keep(first)
            keep(second)
        }
        let calls = waitForNotify(count: 4, timeout: 4)
        XCTAssertEqual(Set(calls.prefix(2).map(\.summary)), ["First", "Second"])
        XCTAssertEqual(Set(calls.filter { $0.replacesId != 0 }.map(\.replacesId)), [1, 2])
    }

    func testServerRestartShowsActiveBannersAgain() throws {
        try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_restart", proxyNumber: "+1", otherPartyLabel: "E", verified: true)
            keep(manager)
        }
        _ = waitForNotify(count: 1)
        mock.stop()
        mock = try MockNotificationServer.start()
        let calls = waitForNotify(count: 1, timeout: 3)
        XCTAssertEqual(calls.first?.replacesId, 0, "a new server gets a fresh notification, not the old id")
        XCTAssertEqual(calls.first?.summary, "E")
    }

    func testUpdateChangesVerificationAndLabel() throws {
        try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_upd", proxyNumber: "+1", otherPartyLabel: "Old", verified: false)
            await manager.update(state: .init(elapsedSeconds: 65, verified: true, otherPartyLabel: "New <b>name</b>"))
            keep(manager)
        }
        // Start and update may coalesce into one Notify or come as two: the latest is the update.
        var calls: [MockNotificationServer.NotifyCall] = []
        LoopWait.until(timeout: 30) {
            calls = self.mock.notifyCalls()
            return calls.last?.summary == "New <b>name</b>"
        }
        let updated = try XCTUnwrap(calls.last)
        XCTAssertEqual(updated.summary, "New <b>name</b>", "the summary is plain text by spec")
        XCTAssertTrue(updated.body.hasPrefix("+1, 01:05"), updated.body)
        XCTAssertTrue(updated.body.hasSuffix("\nVerified"))
    }
}

/// Managers live for the whole call; tests keep theirs until tearDown closes all.
@MainActor private var keptManagers: [LiveActivityManager] = []
@MainActor private func keep(_ manager: LiveActivityManager) { keptManagers.append(manager) }

/// A notification server that hangs must not stall the main loop.
final class HungServerTests: XCTestCase {
    func testStoppedServerDoesNotStallTheLoopAndBannersCatchUp() throws {
        let mock = try MockNotificationServer.start()
        defer {
            mock.stop()
            BannerServerWait.untilGone()
        }
        try BannerServerWait.untilShowing { $0.name == "mock-notify" }
        let manager = try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(
                sessionId: "ses_hang", proxyNumber: "+1", otherPartyLabel: "Before", verified: false)
            return manager
        }
        XCTAssertTrue(LoopWait.until(timeout: 5) { mock.notifyCalls().count >= 1 })
        mock.pause()
        // While the server is stopped for 30 s (past libnotify's 25 s D-Bus
        // timeout), a 100 ms heartbeat on the main loop keeps beating.
        let beats = Recorder()
        let heartbeat = GLibTimer.repeating(every: 0.1) { beats.tick() }
        _ = try runOnLoop {
            await manager.update(state: .init(elapsedSeconds: 5, verified: true, otherPartyLabel: "After"))
        }
        LoopWait.until(timeout: 30) { false }
        heartbeat.cancel()
        mock.resume()
        let resumedAt = Date()
        // Blocked in libnotify's call, the loop would not beat for its 25 s D-Bus timeout. The longest
        // pause, not the count, is what tells: a busy shared machine slows the beats, it does not stop them.
        let longestPause = beats.longestPause()
        XCTAssertLessThan(longestPause, 20, "main loop stalled while the server was stopped")
        XCTAssertTrue(
            LoopWait.until(timeout: 10) { mock.notifyCalls().last?.summary == "After" },
            "the latest state reaches the server after it resumes")
        print(
            "hung server: \(beats.count) heartbeats in 30 s, the longest pause \(Int(longestPause * 1000)) ms; caught up \(Int(Date().timeIntervalSince(resumedAt) * 1000)) ms after SIGCONT"
        )
        _ = try runOnLoop {
            BannerDriver.shared.closeAll()
            await BannerDriver.shared.flush()
        }
    }
}

final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var beats = 0
    private var last = Recorder.uptime
    private var longest: TimeInterval = 0
    private static var uptime: TimeInterval { ProcessInfo.processInfo.systemUptime }
    func tick() {
        lock.withLock {
            beats += 1
            longest = max(longest, Self.uptime - last)
            last = Self.uptime
        }
    }
    var count: Int { lock.withLock { beats } }
    /// The longest time without a tick, from the recorder's making until now.
    func longestPause() -> TimeInterval { lock.withLock { max(longest, Self.uptime - last) } }
}

/// `start` silently does nothing when banners are off or no server is there.
final class BannersDisabledTests: XCTestCase {
    func testStartDoesNothingWithoutANotificationServer() throws {
        // No server on the private bus (and no activatable one).
        BannerServerWait.untilGone()
        XCTAssertFalse(try runOnLoop { await BannerDriver.shared.bannersAvailable() })
        let active = try runOnLoop {
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_none", proxyNumber: "+1", otherPartyLabel: "X", verified: true)
            return manager.isActive
        }
        XCTAssertFalse(active)
    }

    func testStartDoesNothingWhenBannersAreTurnedOff() throws {
        let mock = try MockNotificationServer.start()
        defer {
            mock.stop()
            BannerServerWait.untilGone()
        }
        try BannerServerWait.untilShowing { $0.name == "mock-notify" }
        XCTAssertTrue(try runOnLoop { await BannerDriver.shared.bannersAvailable() })
        let active = try runOnLoop {
            BannerDriver.forApps.settings.enabled = false
            defer { BannerDriver.forApps.settings.enabled = true }
            let manager = LiveActivityManager()
            try await manager.start(sessionId: "ses_off", proxyNumber: "+1", otherPartyLabel: "X", verified: true)
            return manager.isActive
        }
        XCTAssertFalse(active)
        // A banner started after the settings are back on reaches the server, and it is the first.
        let marker = try runOnLoop {
            let marker = LiveActivityManager()
            try await marker.start(sessionId: "ses_on", proxyNumber: "+1", otherPartyLabel: "On", verified: true)
            return marker
        }
        XCTAssertTrue(LoopWait.until(timeout: 30) { !mock.notifyCalls().isEmpty })
        XCTAssertEqual(Set(mock.notifyCalls().map(\.summary)), ["On"], "nothing was shown while banners were off")
        try runOnLoop { await marker.end() }
    }

    func testUserSettingsFileTurnsBannersOff() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("agent.conf")
        try "[agent]\nbanners-enabled = false\nkeep-on-screen = true\n".write(
            to: file, atomically: true, encoding: .utf8)
        let settings = BannerSettings.loadUserSettings(path: file.path)
        XCTAssertFalse(settings.enabled)
        XCTAssertTrue(settings.keepOnScreen)
        XCTAssertEqual(
            BannerSettings.loadUserSettings(path: dir.appendingPathComponent("missing.conf").path), BannerSettings())
    }
}
