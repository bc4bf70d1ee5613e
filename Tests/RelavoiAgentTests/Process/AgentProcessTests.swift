import CGLib
import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// The built relavoi-agent as a black box: relavoi-sandbox feeds the stream,
/// python3-dbusmock records what reaches the notification server.
final class AgentProcessTests: XCTestCase {
    func testRingingAnsweredEndedMapToBanners() throws {
        try withAgent() { h in
            h.session("ses_1", proxy: "+2348000000001", label: "Chowdeck rider")
            h.send("call.incoming", "ses_1", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.hints["category"] == "call.incoming" }
            let ringing = h.mock.notifyCalls().first { $0.hints["category"] == "call.incoming" }
            XCTAssertEqual(ringing?.hints["sound-name"], "phone-incoming-call", "the first ringing Notify rings")
            // The label and verification come from GET /sessions/{id}.
            h.waitForNotify {
                $0.summary == "Chowdeck rider" && $0.body.contains("Verified")
                    && $0.hints["category"] == "call.incoming"
            }
            h.send("call.answered", "ses_1")
            let live = h.waitForNotify { $0.hints["category"] == "call" }
            XCTAssertEqual(live?.summary, "Chowdeck rider")
            XCTAssertNil(live?.hints["sound-name"], "the sound plays once, when ringing")
            // The agent's banners are Relavoi's, whatever its process is called.
            XCTAssertEqual(live?.appName, "Relavoi")
            XCTAssertEqual(live?.hints["desktop-entry"], "com.relavoi.Agent")
            h.waitForNotify { ($0.timerSeconds ?? -1) >= 1 }
            let notifies = h.mock.notifyCalls().count
            h.send("call.ended", "ses_1", ["durationSeconds": .int(2)])
            XCTAssertTrue(
                LoopWait.until(timeout: 5) { h.mock.closeCalls().count == 1 }, "immediate policy closes the banner")
            XCTAssertEqual(
                Set(h.mock.notifyCalls().dropFirst(notifies).map(\.hints["category"])), [],
                "no ended state with immediate")
        }
    }

    /// libphonenumber groups every proxy number the user sees; what it
    /// cannot parse ("+15550100": too short for +1) is shown as received.
    func testProxyNumbersAreGroupedForReading() throws {
        try withAgent(config: "dismiss-policy = after:60") { h in
            h.session("ses_n", proxy: "+2348000000001", label: "Chowdeck rider")
            h.send("call.incoming", "ses_n", ["proxyNumber": .string("+2348000000001")])
            let ringing = h.waitForNotify {
                $0.hints["category"] == "call.incoming" && $0.body.contains("Verified")
            }
            XCTAssertTrue(ringing?.body.hasPrefix("Incoming call on +234 800 000 0001") == true, ringing?.body ?? "")
            h.send("call.answered", "ses_n")
            let live = h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 1 }
            XCTAssertTrue(live?.body.hasPrefix("+234 800 000 0001, 00:0") == true, live?.body ?? "")
            let (status, output) = try AgentProcess.run(arguments: ["ctl", "list"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("+234 800 000 0001"), output)
            h.send("sms.received", "ses_n", ["smsRecordId": .string("sms1")])
            let sms = h.waitForNotify { $0.hints["category"] == "im.received" }
            XCTAssertEqual(sms?.body, "New SMS on +234 800 000 0001")
            h.send("call.ended", "ses_n", ["durationSeconds": .int(3)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertTrue(ended?.body.contains("\n+234 800 000 0001, ") == true, ended?.body ?? "")
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.body.contains("+2348000000001") }, "never ungrouped")

            h.session("ses_odd", proxy: "+15550100")
            h.send("call.incoming", "ses_odd", ["proxyNumber": .string("+15550100")])
            h.send("call.missed", "ses_odd")
            let missed = h.waitForNotify { $0.hints["category"] == "call.unanswered" }
            XCTAssertTrue(missed?.body.hasPrefix("Missed call on +15550100") == true, missed?.body ?? "")
        }
    }

    func testAnsweredBeforeConnectingShowsTrueElapsedTime() throws {
        try withAgent() { h in
            h.session("ses_late")
            let answeredAt = Date().addingTimeInterval(-90)
            h.send("call.answered", "ses_late", ["timestamp": .string(WireTimeForTests.string(answeredAt))])
            let live = h.waitForNotify { $0.hints["category"] == "call" && $0.summary == "Rider" }
            XCTAssertTrue(live?.body.contains("01:3") == true, live?.body ?? "")
        }
    }

    func testMissedCallBecomesUnansweredBanner() throws {
        try withAgent() { h in
            h.session("ses_miss")
            h.send("call.incoming", "ses_miss", ["proxyNumber": .string("+15550100")])
            h.waitForNotify { $0.hints["category"] == "call.incoming" }
            h.send("call.missed", "ses_miss", ["cpaasSessionId": .string("cp1")])
            let missed = h.waitForNotify { $0.hints["category"] == "call.unanswered" }
            XCTAssertTrue(missed?.body.hasPrefix("Missed call on +15550100") == true)
        }
    }

    func testEndedWithDefaultPolicyShowsFinalDuration() throws {
        try withAgent(config: "dismiss-policy = default") { h in
            h.session("ses_def")
            h.send("call.answered", "ses_def")
            h.waitForNotify { $0.hints["category"] == "call" }
            h.send("call.ended", "ses_def", ["durationSeconds": .int(754)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertTrue(ended?.body.hasPrefix("Call ended, 12:34") == true, ended?.body ?? "")
            XCTAssertTrue(h.mock.closeCalls().isEmpty)
        }
    }

    func testProxyNumberFilterAndBannerCapWithSummary() throws {
        try withAgent(config: "proxy-numbers = +15550001, +15550002, +15550003\nmax-banners = 1") { h in
            h.session("ses_other", proxy: "+19990000")
            h.send("call.answered", "ses_other")  // not ours: the agent learns the proxy over REST and skips it
            h.session("ses_a", proxy: "+15550001", label: "A")
            h.session("ses_b", proxy: "+15550002", label: "B")
            h.send("call.answered", "ses_a")
            h.waitForNotify { $0.summary == "A" }
            h.send("call.answered", "ses_b")
            let summary = h.waitForNotify { $0.body == "1 more active call" }
            XCTAssertEqual(summary?.summary, "Relavoi")
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.summary == "B" }, "over the cap: no banner of its own")
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.body.contains("+19990000") }, "filtered out")
            // When A ends, B takes its place and the summary closes.
            h.send("call.ended", "ses_a")
            h.waitForNotify { $0.summary == "B" && $0.hints["category"] == "call" }
        }
    }

    func testVerificationWithUserPhoneAndServerErrors() throws {
        try withAgent(config: "user-phone = +2348011112222") { h in
            h.session("ses_mine", label: "Mine", phones: ["+2348011112222"])
            h.session("ses_theirs", label: "Theirs", phones: [])
            h.send("call.answered", "ses_theirs")
            let theirs = h.waitForNotify { $0.summary == "Theirs" && $0.body.contains("Unverified") }
            XCTAssertTrue(theirs?.icon.contains("unverified") == true)
            h.send("call.answered", "ses_mine")
            h.waitForNotify { $0.summary == "Mine" && $0.body.contains("\nVerified") }
            h.sandbox.failREST = 500
            h.session("ses_err", label: "Err")
            h.send("call.answered", "ses_err")
            // The lookups failed: the banner says it could not check, not that the server said no.
            let failed = h.waitForNotify { $0.summary == "Relavoi call" && $0.body.contains("Could not verify") }
            XCTAssertTrue(failed?.icon.contains("unavailable") == true, failed?.icon ?? "")
            XCTAssertFalse(failed?.body.contains("Unverified") == true)
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.summary == "Err" }, "no label without the server")
        }
    }

    func testReconnectReconcilesBannersOfSessionsThatEnded() throws {
        try withAgent() { h in
            h.session("ses_gone")
            h.session("ses_stays", label: "Stays")
            h.send("call.answered", "ses_gone")
            h.send("call.answered", "ses_stays")
            h.waitForNotify { $0.summary == "Rider" }
            h.waitForNotify { $0.summary == "Stays" }
            // While the agent is away, one session expires; the call.ended is lost.
            h.sandbox.dropConnections()
            h.session("ses_gone", state: "EXPIRED")
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { h.mock.closeCalls().count == 1 },
                "stale banner closed:\n\(h.agent.log.suffix(2000))")
            // The reconcile after the reconnect is over: it closed one banner, not two.
            h.waitForLog("the reconcile after connecting is over", count: 2)
            XCTAssertEqual(h.mock.closeCalls().count, 1, "the live session's banner stays")
        }
    }

    func testSIGTERMClosesBannersAndExitsCleanly() throws {
        try withAgent() { h in
            h.session("ses_term")
            h.send("call.answered", "ses_term")
            h.waitForNotify { $0.hints["category"] == "call" }
            h.agent.signal(SIGTERM)
            XCTAssertEqual(h.agent.waitForExit(timeout: 5), 0)
            XCTAssertEqual(h.mock.closeCalls().count, 1, "banners closed on the way out")
        }
    }

    func testSessionExpiredEndsItsBannerAndSMSGetsAShortBanner() throws {
        try withAgent(config: "dismiss-policy = after:60") { h in
            h.session("ses_x", proxy: "+15550100")
            h.send("session.created", "ses_x", ["proxyNumber": .string("+15550100")])
            h.send("sms.received", "ses_x", ["smsRecordId": .string("sms1")])
            let sms = h.waitForNotify { $0.hints["category"] == "im.received" }
            XCTAssertEqual(sms?.body, "New SMS on +15550100")
            h.send("call.answered", "ses_x")
            h.waitForNotify { $0.hints["category"] == "call" }
            h.send("session.expired", "ses_x", ["proxyNumber": .string("+15550100")])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertNotNil(ended)
        }
    }

    func testSMSBannersCanBeSwitchedOff() throws {
        try withAgent(config: "sms-notifications = false") { h in
            h.session("ses_s")
            h.send("sms.received", "ses_s")
            h.send("call.answered", "ses_s")
            h.waitForNotify { $0.hints["category"] == "call" }
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.hints["category"] == "im.received" })
        }
    }

    func testDoNotDisturbSilencesRingingUnlessRingThroughIsOn() throws {
        try withAgent(prepareServer: { $0.addBooleanProperty("Inhibited", true) }) { h in
            h.waitForLog("do not disturb is on")  // read asynchronously at start
            h.session("ses_dnd")
            h.send("call.incoming", "ses_dnd", ["proxyNumber": .string("+15550100")])
            let ringing = h.waitForNotify { $0.hints["category"] == "call.incoming" }
            XCTAssertNil(ringing?.hints["sound-name"], "no ringing sound in Do Not Disturb")
            XCTAssertEqual(ringing?.hints["urgency"], "byte 0x01")
        }
        try withAgent(config: "ring-through-dnd = true", prepareServer: { $0.addBooleanProperty("Inhibited", true) }) {
            h in
            h.waitForLog("do not disturb is on")
            h.session("ses_dnd2")
            h.send("call.incoming", "ses_dnd2", ["proxyNumber": .string("+15550100")])
            let ringing = h.waitForNotify { $0.hints["category"] == "call.incoming" }
            XCTAssertEqual(
                ringing?.hints["urgency"], "byte 0x02", "ring-through-dnd breaks through at critical urgency")
            XCTAssertEqual(ringing?.hints["sound-name"], "phone-incoming-call")
        }
    }

    /// A server that replaces an inhibited one (Plasma restarted, or another
    /// server) is asked again: its Do Not Disturb is its own.
    func testANewServerIsAskedForItsDoNotDisturbAgain() throws {
        try withAgent(prepareServer: { $0.addBooleanProperty("Inhibited", true) }) { h in
            h.waitForLog("do not disturb is on")
            h.mock.stop()
            let next = try MockNotificationServer.start()
            defer { next.stop() }
            h.waitForLog("do not disturb is off")
        }
    }

    func testCallEndedBeforeAnsweredLeavesNoTickingBanner() throws {
        try withAgent { h in
            h.session("ses_order", proxy: "+15559999", label: "Ended")
            let now = Date()
            h.send("call.ended", "ses_order", ["timestamp": .string(WireTimeForTests.string(now))])
            // Frames out of order: the answer (earlier) arrives after the end.
            h.send(
                "call.answered", "ses_order",
                ["timestamp": .string(WireTimeForTests.string(now.addingTimeInterval(-5)))])
            h.session("ses_next", label: "Next")
            h.send("call.answered", "ses_next")
            h.waitForNotify { $0.summary == "Next" }
            // The answer was judged stale, and the reconcile after connecting
            // (which lists the sandbox's answered call) is over too.
            h.waitForLog("ignoring a stale call event for session ses_order")
            h.waitForLog("the reconcile after connecting is over")
            let stale = h.mock.notifyCalls().filter { $0.summary == "Ended" || $0.body.contains("+15559999") }
            XCTAssertEqual(stale.count, 0, "no banner for a call that ended: \(stale)\n\(h.agent.log)")
        }
    }

    /// With a slow network, the first Notify says what is known (the number
    /// from the stream) and that it is checking: never a claim the server did
    /// not make; the server's answer follows in place; one ring per call.
    func testSlowRESTShowsCheckingFirstThenTheServersAnswer() throws {
        try withAgent { h in
            h.sandbox.restLatency = 1.5
            h.session("ses_slow", proxy: "+2348000000001", label: "Chowdeck rider")
            h.send("call.incoming", "ses_slow", ["proxyNumber": .string("+2348000000001")])
            let verified = h.waitForNotify { $0.summary == "Chowdeck rider" && $0.body.contains("\nVerified") }
            let ringing = h.mock.notifyCalls().filter { $0.hints["category"] == "call.incoming" }
            let first = try XCTUnwrap(ringing.first)
            XCTAssertTrue(first.body.contains("+234 800 000 0001"), "the number from the stream: \(first.body)")
            XCTAssertTrue(first.body.contains("Checking…"), first.body)
            XCTAssertTrue(first.icon.contains("checking"), first.icon)
            XCTAssertFalse(first.body.contains("Verified") || first.body.contains("Unverified"), first.body)
            XCTAssertEqual(first.hints["sound-name"], "phone-incoming-call")
            XCTAssertNotNil(verified)
            h.send("call.answered", "ses_slow")
            h.waitForNotify { $0.hints["category"] == "call" && $0.body.contains("\nVerified") }
            let all = h.mock.notifyCalls()
            XCTAssertFalse(all.contains { $0.body.contains("Unverified") }, "no Unverified before the server answered")
            XCTAssertEqual(all.filter { $0.hints["sound-name"] != nil }.count, 1, "one ring per call")
            XCTAssertTrue(
                all.dropFirst().allSatisfy { $0.hints["suppress-sound"] == "true" },
                "every later update suppresses sound: \(all.map(\.hints))")
        }
    }

    /// `proxy-numbers` set, `call.answered` (no number) while the session is
    /// looked up, then `call.ended` before the lookup answers: no live banner,
    /// only the ended state the dismissal policy asks for.
    func testACallThatEndsWhileItsFilterLookupIsInFlightStrandsNoBanner() throws {
        try withAgent(config: "proxy-numbers = +15550100\ndismiss-policy = default") { h in
            h.sandbox.restLatency = 1.5
            h.session("ses_race", proxy: "+15550100", label: "Race")
            h.send("call.answered", "ses_race")
            h.send("call.ended", "ses_race", ["durationSeconds": .int(3)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertTrue(ended?.body.hasPrefix("Call ended, 00:03") == true, ended?.body ?? "")
            let live = h.mock.notifyCalls().filter { ["call", "call.incoming"].contains($0.hints["category"]) }
            XCTAssertEqual(live.count, 0, "no ringing or live banner for a call that ended: \(live)")
        }
    }

    /// GNOME 45-48 (here a server that says it is GNOME Shell 48.7): each
    /// phase is a notification of its own and none changes urgency.
    func testGnome48GetsOneNotificationPerPhaseThatNeverChangesUrgency() throws {
        try withAgent(
            config: "dismiss-policy = default",
            prepareServer: { $0.pretend(name: "gnome-shell", vendor: "GNOME", version: "48.7") }
        ) { h in
            h.session("ses_48", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_48", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("Verified") }
            h.send("call.answered", "ses_48")
            h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 2 }
            h.send("call.ended", "ses_48", ["durationSeconds": .int(3)])
            h.waitForNotify { $0.hints["category"] == "call.ended" }
            let calls = h.mock.notifyCalls()
            // A new notification (replaces id 0) starts each phase; updates within a phase replace it.
            let starts = calls.filter { $0.replacesId == 0 }.map { $0.hints["category"] ?? "" }
            XCTAssertEqual(starts, ["call.incoming", "call", "call.ended"], "\(calls.map(\.hints))")
            for category in ["call.incoming", "call", "call.ended"] {
                let urgencies = Set(calls.filter { $0.hints["category"] == category }.map { $0.hints["urgency"] ?? "" })
                XCTAssertEqual(urgencies.count, 1, "\(category) changed urgency: \(urgencies)")
            }
            XCTAssertEqual(
                Set(calls.filter { $0.hints["category"] == "call" }.map { $0.hints["urgency"] }), ["byte 0x00"],
                "the live call is low urgency from its first Notify")
            XCTAssertTrue(
                LoopWait.until(timeout: 5) { h.mock.closeCalls().count >= 2 },
                "the ringing and live notifications were closed as their phases ended")
            XCTAssertEqual(calls.filter { $0.hints["sound-name"] != nil }.count, 1)
            XCTAssertTrue(
                calls.allSatisfy { $0.hints["image-path"]?.contains("com.relavoi.Agent-") == true },
                "GNOME 45 on draws the badge from the image hint only")
        }
    }

    func testUnknownAndMalformedFramesDoNotStopTheAgent() throws {
        try withAgent() { h in
            h.sandbox.send(text: "{not json")
            h.sandbox.send(text: String(repeating: "[", count: 10_000))
            h.sandbox.sendEvent(type: "pool.low_availability", payload: [:])
            h.sandbox.sendEvent(type: "call.answered", payload: ["sessionId": .int(5)])
            h.session("ses_ok", label: "<b>Bold</b>\u{202E}")
            h.send("call.answered", "ses_ok")
            // Labels are plain text in the summary (the spec renders no markup there); the bidi override is gone.
            h.waitForNotify { $0.hints["category"] == "call" && $0.summary == "<b>Bold</b>" }
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.summary.contains("\u{202E}") })
            XCTAssertTrue(h.agent.process.isRunning)
        }
    }
}

/// Runs `body` with a connected agent; stops everything afterwards.
private func withAgent(
    config: String = "", environment: [String: String] = [:],
    prepareServer: @escaping @Sendable (MockNotificationServer) -> Void = { _ in },
    _ body: @MainActor (AgentHarness) throws -> Void
) throws {
    try MainActor.assumeIsolated {
        let harness = try AgentHarness(config: config, environment: environment, prepareServer: prepareServer)
        defer { harness.stop() }
        XCTAssertTrue(harness.waitForConnection(), "agent never connected:\n\(harness.agent.log)")
        try body(harness)
    }
}

/// ISO-8601 with milliseconds, as the wire carries it.
enum WireTimeForTests {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
