import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// `pause-media`: the running agent against a real player (mpv with mpv-mpris, playing a
/// tone to the null audio output) and python3-dbusmock stand-ins for what a real player
/// cannot be made to do, all on the test's bus. Every wait is for an event: a player's
/// status, a player's recorded call, a banner's tick.
final class MediaPauseProcessTests: XCTestCase {
    static let proxy = "+15550100"

    @MainActor
    private static func ring(_ h: AgentHarness, _ sessionId: String, proxy: String = proxy) {
        h.session(sessionId, proxy: proxy)
        h.send("call.incoming", sessionId, ["proxyNumber": .string(proxy)])
    }

    /// Waits until `read()` says `expected`; fails with what it said last.
    @MainActor
    @discardableResult
    private static func waitFor(
        _ expected: String, _ what: String, timeout: Double = 15, _ h: AgentHarness,
        file: StaticString = #filePath, line: UInt = #line, _ read: @escaping () -> String?
    ) -> Bool {
        var last: String?
        let ok = LoopWait.until(timeout: timeout) {
            last = read()
            return last == expected
        }
        XCTAssertTrue(
            ok, "\(what): \(last ?? "no answer"), not \(expected)\n\(h.agent.log.suffix(3000))", file: file,
            line: line)
        return ok
    }

    /// An agent on the sandbox and dbusmock, connected (the caller stops it).
    @MainActor
    private static func connectedAgent(config: String = "") throws -> AgentHarness {
        let h = try AgentHarness(config: config)
        XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
        return h
    }

    /// The live banner of the call has ticked to `seconds` (the agent's loop keeps its beat).
    @MainActor
    private static func liveTicks(_ h: AgentHarness, to seconds: Int, timeout: Double = 20) -> Bool {
        h.waitForNotify(timeout: timeout) { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= seconds }
            != nil
    }

    func testAPlayingPlayerIsPausedOnTheRingAndPlaysAfterTheCall() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            // Paused by the person before the call: the agent never touches it.
            let pausedBefore = try StandInMediaPlayer(status: "Paused")
            defer { pausedBefore.stop() }
            let h = try Self.connectedAgent()
            defer { h.stop() }
            let before = mpv.status

            Self.ring(h, "ses_music")
            XCTAssertNotNil(h.waitForNotify { $0.hints["category"] == "call.incoming" })
            Self.waitFor("Paused", "mpv at ringing", h) { mpv.status }
            let atRinging = mpv.status
            h.send("call.answered", "ses_music")
            XCTAssertTrue(Self.liveTicks(h, to: 2), "the call went live")
            let duringCall = mpv.status
            XCTAssertEqual(duringCall, "Paused", "the call is the only sound")
            h.send("call.ended", "ses_music", ["durationSeconds": .int(3)])
            Self.waitFor("Playing", "mpv after the call", h) { mpv.status }
            let after = mpv.status
            XCTAssertEqual(pausedBefore.calls("Play"), 0, "a player paused before the call stays as it was")
            XCTAssertEqual(pausedBefore.calls("Pause"), 0)
            XCTAssertEqual(pausedBefore.status, "Paused")
            print(
                "mpv PlaybackStatus: before \(before ?? "-"), at ringing \(atRinging ?? "-"), during the call "
                    + "\(duringCall ?? "-"), after \(after ?? "-")")
        }
    }

    func testAPersonWhoTookThePlayerBackDuringTheCallKeepsIt() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            // Left alone by the person: played again after the call, which tells the resume is over.
            let untouched = try StandInMediaPlayer(status: "Playing")
            defer { untouched.stop() }
            let stopped = try StandInMediaPlayer(name: "org.mpris.MediaPlayer2.stopped", status: "Playing")
            defer { stopped.stop() }
            let h = try Self.connectedAgent()
            defer { h.stop() }

            Self.ring(h, "ses_person")
            Self.waitFor("Paused", "mpv at ringing", h) { mpv.status }
            Self.waitFor("Paused", "the stand-in at ringing", h) { untouched.status }
            Self.waitFor("Paused", "the other stand-in at ringing", h) { stopped.status }
            h.send("call.answered", "ses_person")
            XCTAssertTrue(Self.liveTicks(h, to: 1), "the call went live")
            // The person plays the music during the call, then pauses it again; stops the other.
            XCTAssertTrue(mpv.person("Play", announces: "Playing"), "mpv: \(mpv.announced)")
            XCTAssertTrue(mpv.person("Pause", announces: "Paused"), "mpv: \(mpv.announced)")
            stopped.person("Stopped")
            h.send("call.ended", "ses_person", ["durationSeconds": .int(2)])
            Self.waitFor("1", "Play calls of the untouched player", h) { untouched.calls("Play").map(String.init) }
            XCTAssertEqual(untouched.status, "Playing")
            XCTAssertEqual(mpv.status, "Paused", "the person paused it during the call: it stays paused")
            XCTAssertEqual(stopped.status, "Stopped", "the person stopped it: it stays stopped")
            XCTAssertEqual(stopped.calls("Play"), 0)
            XCTAssertFalse(h.agent.log.contains("playing \(mpv.busName) "), h.agent.log)
        }
    }

    func testTwoOverlappingCallsPauseOnceAndPlayAfterTheLast() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            let standIn = try StandInMediaPlayer(status: "Playing")
            defer { standIn.stop() }
            let h = try Self.connectedAgent()
            defer { h.stop() }

            Self.ring(h, "ses_first")
            Self.waitFor("Paused", "mpv at the first ring", h) { mpv.status }
            Self.waitFor("Paused", "the stand-in at the first ring", h) { standIn.status }
            h.send("call.answered", "ses_first")
            XCTAssertTrue(Self.liveTicks(h, to: 1), "the first call went live")
            Self.ring(h, "ses_second", proxy: "+15550101")
            XCTAssertNotNil(h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("0101") })
            h.send("call.ended", "ses_first", ["durationSeconds": .int(2)])
            XCTAssertTrue(LoopWait.until(timeout: 15) { !h.mock.closeCalls().isEmpty }, "the first banner closed")
            h.send("call.answered", "ses_second")
            // While the second call goes on (its banner ticks), nothing plays.
            var played: [String] = []
            let ticked = LoopWait.until(timeout: 20) {
                if let status = mpv.status, status != "Paused" { played.append("mpv \(status)") }
                if let status = standIn.status, status != "Paused" { played.append("stand-in \(status)") }
                return h.mock.notifyCalls().contains {
                    $0.hints["category"] == "call" && $0.body.contains("0101") && ($0.timerSeconds ?? -1) >= 3
                }
            }
            XCTAssertTrue(ticked, "the second call went live and ticked:\n\(h.agent.log.suffix(2000))")
            XCTAssertEqual(played, [], "no early resume")
            XCTAssertEqual(standIn.calls("Pause"), 1, "one pause for both calls")
            XCTAssertEqual(standIn.calls("Play"), 0)
            h.send("call.ended", "ses_second", ["durationSeconds": .int(3)])
            Self.waitFor("Playing", "mpv after the last call", h) { mpv.status }
            Self.waitFor("Playing", "the stand-in after the last call", h) { standIn.status }
            XCTAssertEqual(standIn.calls("Pause"), 1)
            XCTAssertEqual(standIn.calls("Play"), 1)
        }
    }

    func testOffPausesNothing() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            let h = try Self.connectedAgent(config: "pause-media = off")
            defer { h.stop() }
            Self.ring(h, "ses_off")
            h.send("call.answered", "ses_off")
            var statuses: Set<String> = []
            let ticked = LoopWait.until(timeout: 20) {
                statuses.insert(mpv.status ?? "no answer")
                return h.mock.notifyCalls().contains { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 3 }
            }
            XCTAssertTrue(ticked, "the call went live and ticked:\n\(h.agent.log.suffix(2000))")
            XCTAssertEqual(statuses, ["Playing"], "rang, answered, three seconds live")
            XCTAssertFalse(h.agent.log.contains("media: "), h.agent.log)
        }
    }

    /// `pause-media` turned on in agent.conf while the agent runs (the settings
    /// window writes it so): the next call pauses, without a restart.
    func testTurningPauseMediaOnTakesEffectWithoutARestart() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            let h = try Self.connectedAgent(config: "pause-media = off")
            defer { h.stop() }
            try "[agent]\npause-media = ringing\n".write(to: h.agent.configFile, atomically: true, encoding: .utf8)
            XCTAssertTrue(h.agent.waitForLog("settings changed: taken in place"), h.agent.log)
            XCTAssertTrue(h.agent.waitForLog("media: players are paused for calls"), h.agent.log)
            Self.ring(h, "ses_on")
            Self.waitFor("Paused", "mpv once the call rings", h) { mpv.status }
            h.send("call.ended", "ses_on")
            Self.waitFor("Playing", "mpv after the call", h) { mpv.status }
        }
    }

    func testACallTheFilterKeepsOutPausesNothing() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            let h = try Self.connectedAgent(config: "proxy-numbers = +15550199")
            defer { h.stop() }
            Self.ring(h, "ses_other_number")
            h.send("call.answered", "ses_other_number")
            // A banner a local app starts over D-Bus ticks meanwhile: the loop's clock for the wait.
            let client = try BusTestClient(destination: AgentBus.name)
            XCTAssertFalse(client.call("Start", Args.start("ses_clock")).isError)
            var statuses: Set<String> = []
            let ticked = LoopWait.until(timeout: 20) {
                statuses.insert(mpv.status ?? "no answer")
                return h.mock.notifyCalls().contains { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 3 }
            }
            XCTAssertTrue(ticked, "the D-Bus banner ticked:\n\(h.agent.log.suffix(2000))")
            XCTAssertEqual(statuses, ["Playing"], "a filtered call and a D-Bus banner pause nothing")
            XCTAssertFalse(
                h.mock.notifyCalls().contains { $0.body.contains("0100") }, "the filtered call had no banner")
            // A call on the shown number does pause it.
            Self.ring(h, "ses_shown", proxy: "+15550199")
            Self.waitFor("Paused", "mpv for a shown call", h) { mpv.status }
            h.send("call.ended", "ses_shown")
            Self.waitFor("Playing", "mpv after the shown call", h) { mpv.status }
            XCTAssertEqual(h.agent.log.components(separatedBy: "media: pausing").count - 1, 1, h.agent.log)
        }
    }

    func testAPlayerThatHangsOnPauseDoesNotStallTheLoop() throws {
        try MainActor.assumeIsolated {
            let hang = 10
            let hung = try StandInMediaPlayer(status: "Playing", hangOnPause: hang)
            defer { hung.stop() }
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            let h = try Self.connectedAgent()
            defer { h.stop() }

            Self.ring(h, "ses_hang")
            // mpv pauses while the stand-in still hangs in its Pause (a loop waiting on it
            // would pause mpv after the hang, or never).
            Self.waitFor("Paused", "mpv while the other player hangs", timeout: 5, h) { mpv.status }
            h.send("call.answered", "ses_hang")
            // The live banner ticks through the hang: the agent's own timer texts, as the
            // notification server recorded them, never jump.
            XCTAssertTrue(Self.liveTicks(h, to: hang + 2, timeout: 40), "the call ticked past the hang")
            let timers = h.mock.notifyCalls().filter { $0.hints["category"] == "call" }.compactMap(\.timerSeconds)
            // From the answer (00:00) on: a loop held by the hang would show its first live tick late.
            let jumps = zip([0] + timers, timers).map { $1 - $0 }
            XCTAssertLessThanOrEqual(jumps.max() ?? 99, 2, "the loop missed beats: \(timers)")
            XCTAssertGreaterThanOrEqual(timers.count, hang, "\(timers)")
            XCTAssertTrue(h.agent.log.contains("did not answer Pause"), h.agent.log)
            h.send("call.ended", "ses_hang", ["durationSeconds": .int(hang)])
            Self.waitFor("Playing", "mpv after the call", h) { mpv.status }
            // The stand-in paused late, for the call: it reads Paused and plays again too.
            Self.waitFor("Playing", "the late stand-in after the call", h) { hung.status }
            print("live timer texts through a \(hang) s hang in Pause: \(timers)")
        }
    }

    func testAPlayerThatVanishesMidCallIsNotPlayedAgain() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            let standIn = try StandInMediaPlayer(status: "Playing")
            let h = try Self.connectedAgent()
            defer { h.stop() }
            Self.ring(h, "ses_vanish")
            Self.waitFor("Paused", "mpv at ringing", h) { mpv.status }
            Self.waitFor("Paused", "the stand-in at ringing", h) { standIn.status }
            let first = standIn.owner
            standIn.stop()
            // The same name comes back, another process, paused: not the player the agent paused.
            let again = try StandInMediaPlayer(status: "Paused")
            defer { again.stop() }
            XCTAssertNotEqual(again.owner, first)
            h.send("call.ended", "ses_vanish")
            Self.waitFor("Playing", "mpv after the call", h) { mpv.status }
            XCTAssertEqual(again.calls("Play"), 0, "a player that appeared during the call is left alone")
            XCTAssertEqual(again.status, "Paused")
            XCTAssertFalse(h.agent.log.contains("playing \(again.name)"), h.agent.log)
        }
    }

    func testStoppingPlaysWhatItPausedAndACrashLeavesPlayersAlone() throws {
        try MainActor.assumeIsolated {
            let mpv = try MPVPlayer()
            defer { mpv.stop() }
            // SIGTERM (logout, systemctl stop, a restart) during a call: played again before the exit.
            let stopped = try AgentHarness()
            XCTAssertTrue(stopped.waitForConnection(), "agent never connected:\n\(stopped.agent.log)")
            Self.ring(stopped, "ses_term")
            Self.waitFor("Paused", "mpv at ringing", stopped) { mpv.status }
            stopped.agent.signal(SIGTERM)
            XCTAssertEqual(stopped.agent.waitForExit(timeout: 15), 0)
            XCTAssertTrue(stopped.agent.log.contains("playing \(mpv.busName) ("), stopped.agent.log)
            Self.waitFor("Playing", "mpv after the agent stopped", stopped) { mpv.status }
            stopped.stop()

            // SIGKILL (a crash) during a call: nothing plays it again, and the next agent
            // finds no mark of its own, so it leaves the paused player alone.
            let crashed = try AgentHarness()
            XCTAssertTrue(crashed.waitForConnection(), "agent never connected:\n\(crashed.agent.log)")
            Self.ring(crashed, "ses_crash")
            Self.waitFor("Paused", "mpv at ringing", crashed) { mpv.status }
            crashed.agent.signal(SIGKILL)
            XCTAssertNotNil(crashed.agent.waitForExit(timeout: 15))
            crashed.stop()
            let control = try StandInMediaPlayer(status: "Playing")
            defer { control.stop() }
            let next = try AgentHarness()
            defer { next.stop() }
            XCTAssertTrue(next.waitForConnection(), "agent never connected:\n\(next.agent.log)")
            Self.ring(next, "ses_next")
            Self.waitFor("Paused", "the control at ringing", next) { control.status }
            next.send("call.ended", "ses_next")
            Self.waitFor("Playing", "the control after the call", next) { control.status }
            XCTAssertEqual(mpv.status, "Paused", "paused before this agent started: not its own")
            XCTAssertFalse(next.agent.log.contains(mpv.busName), next.agent.log)
        }
    }
}
