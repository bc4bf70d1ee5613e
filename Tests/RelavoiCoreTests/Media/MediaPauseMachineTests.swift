import Foundation
import RelavoiTestSupport
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct MediaPauseMachineTests {
    typealias Player = MediaPauseMachine.Player
    let mpv = Player(busName: "org.mpris.MediaPlayer2.mpv", owner: ":1.7")
    let vlc = Player(busName: "org.mpris.MediaPlayer2.vlc", owner: ":1.8")
    let ringing = CallPhaseCounts(ringing: 1)
    let answered = CallPhaseCounts(answered: 1)
    let none = CallPhaseCounts()

    /// A machine in the quiet of `calls`, with `playing` paused by it.
    func paused(
        _ playing: [Player], mode: MediaPauseMode = .ringing, calls: CallPhaseCounts? = nil
    ) -> MediaPauseMachine {
        var m = MediaPauseMachine(mode: mode, bannersEnabled: true)
        #expect(m.callsChanged(calls ?? ringing) == [.survey(1)])
        for player in playing {
            #expect(m.playerRead(player, status: .playing, survey: 1) == [.pause(player)])
            #expect(m.pauseAnswered(player, .paused) == [])
        }
        return m
    }

    @Test func whatPlaysIsPausedOnTheRingAndPlayedAfter() {
        var m = MediaPauseMachine(mode: .ringing, bannersEnabled: true)
        #expect(m.callsChanged(ringing) == [.survey(1)])
        #expect(m.followsPlayers)
        #expect(m.playerRead(mpv, status: .playing, survey: 1) == [.pause(mpv)])
        #expect(m.playerRead(vlc, status: .paused, survey: 1) == [], "paused by the person before: not ours")
        #expect(m.playerRead(vlc, status: .stopped, survey: 1) == [])
        #expect(m.playerRead(vlc, status: nil, survey: 1) == [], "a player that does not answer is left alone")
        #expect(m.pauseAnswered(mpv, .paused) == [])
        #expect(m.callsChanged(answered) == [], "answered: the same quiet")
        #expect(m.heldPlayers == [mpv])
        #expect(m.callsChanged(none) == [.readBeforePlay(mpv)])
        #expect(m.statusBeforePlay(mpv, .paused) == [.play(mpv)])
        #expect(!m.isSettled, "until Play is answered")
        #expect(m.playAnswered(mpv) == [])
        #expect(m.isSettled && !m.followsPlayers)
    }

    @Test func aPlayerThePersonTouchedDuringTheCallIsTheirs() {
        // Played, then paused again by the person: it stays paused.
        var m = paused([mpv, vlc])
        m.statusChanged(owner: mpv.owner, to: .playing)
        m.statusChanged(owner: mpv.owner, to: .paused)
        // Stopped by the person.
        m.statusChanged(owner: vlc.owner, to: .stopped)
        #expect(m.callsChanged(none) == [])
        #expect(m.isSettled)

        // Started again by the person and still playing when the check reads it.
        var other = paused([mpv])
        #expect(other.callsChanged(none) == [.readBeforePlay(mpv)])
        #expect(other.statusBeforePlay(mpv, .playing) == [])
        #expect(other.isSettled)
    }

    @Test func itsOwnPauseSignalDoesNotCountAsThePersons() {
        var m = paused([mpv])
        m.statusChanged(owner: mpv.owner, to: .paused)
        m.statusChanged(owner: mpv.owner, to: nil)
        m.statusChanged(owner: ":1.99", to: .playing)
        #expect(m.callsChanged(none) == [.readBeforePlay(mpv)])
    }

    @Test func overlappingCallsPauseOnceAndResumeAfterTheLast() {
        var m = paused([mpv])
        #expect(m.callsChanged(CallPhaseCounts(ringing: 1, answered: 1)) == [], "a second call: no second survey")
        #expect(m.callsChanged(CallPhaseCounts(ringing: 0, answered: 2)) == [])
        #expect(m.callsChanged(answered) == [], "the first call ended: the second still holds the quiet")
        #expect(m.heldPlayers == [mpv])
        #expect(m.callsChanged(none) == [.readBeforePlay(mpv)])
    }

    @Test func answeredWaitsForTheAnswerAndAMissedCallPausesNothing() {
        var m = MediaPauseMachine(mode: .answered, bannersEnabled: true)
        #expect(m.callsChanged(ringing) == [])
        #expect(m.callsChanged(none) == [], "missed")
        #expect(m.callsChanged(ringing) == [])
        #expect(m.callsChanged(answered) == [.survey(1)])
        #expect(m.callsChanged(CallPhaseCounts(ringing: 1, answered: 1)) == [])
        #expect(m.callsChanged(ringing) == [], "the answered call ended")
    }

    @Test func offAndBannersOffPauseNothing() {
        for m0 in [
            MediaPauseMachine(mode: .off, bannersEnabled: true),
            MediaPauseMachine(mode: .ringing, bannersEnabled: false),
            MediaPauseMachine(mode: .answered, bannersEnabled: false),
        ] {
            var m = m0
            #expect(m.mode == .off)
            #expect(m.callsChanged(CallPhaseCounts(ringing: 2, answered: 1)) == [])
            #expect(m.playerRead(mpv, status: .playing, survey: 0) == [])
            #expect(m.callsChanged(none) == [] && m.stop() == [])
            #expect(!m.followsPlayers)
        }
    }

    @Test func aPlayerThatVanishedOrCameBackIsNotPlayed() {
        var m = paused([mpv, vlc])
        m.playerVanished(mpv)
        // The same name, another process: not the player the agent paused.
        let newVLC = Player(busName: vlc.busName, owner: ":1.40")
        m.playerVanished(newVLC)
        #expect(m.callsChanged(none) == [.readBeforePlay(vlc)])
    }

    @Test func aPlayerThatAppearsDuringTheCallIsLeftAlone() {
        var m = paused([mpv])
        let late = Player(busName: "org.mpris.MediaPlayer2.late", owner: ":1.50")
        // Only the survey at the quiet's start reads players: a late answer of an older one is dropped.
        #expect(m.playerRead(late, status: .playing, survey: 0) == [])
        #expect(m.playerRead(mpv, status: .playing, survey: 1) == [], "held: no second pause")
        #expect(m.callsChanged(none) == [.readBeforePlay(mpv)])
        #expect(m.playerRead(late, status: .playing, survey: 1) == [], "the quiet is over")
    }

    @Test func aRefusedPauseIsNotPlayedAndAnUnansweredOneOnlyIfItPaused() {
        var m = paused([])
        _ = m.playerRead(mpv, status: .playing, survey: 1)
        _ = m.playerRead(vlc, status: .playing, survey: 1)
        #expect(m.pauseAnswered(mpv, .refused) == [])
        #expect(m.pauseAnswered(vlc, .noAnswer) == [])
        #expect(m.pauseAnswered(vlc, .paused) == [], "a second answer changes nothing")
        #expect(m.callsChanged(none) == [.readBeforePlay(vlc)])
        #expect(m.statusBeforePlay(vlc, nil) == [], "it still does not answer: left as it is")
        #expect(m.isSettled)

        var late = paused([])
        _ = late.playerRead(vlc, status: .playing, survey: 1)
        _ = late.pauseAnswered(vlc, .noAnswer)
        #expect(late.callsChanged(none) == [.readBeforePlay(vlc)])
        #expect(late.statusBeforePlay(vlc, .paused) == [.play(vlc)], "it paused late, for the call")
    }

    @Test func aCallThatEndsWhileThePauseIsUnderWayResumesOnTheAnswer() {
        var m = paused([])
        _ = m.playerRead(mpv, status: .playing, survey: 1)
        #expect(m.callsChanged(none) == [])
        #expect(!m.isSettled)
        #expect(m.pauseAnswered(mpv, .paused) == [.readBeforePlay(mpv)])
        #expect(m.statusBeforePlay(mpv, .paused) == [.play(mpv)])
    }

    @Test func aCallThatRingsDuringTheResumeKeepsThePlayerPaused() {
        // The next call rings while the check is under way: no early resume.
        var m = paused([mpv])
        #expect(m.callsChanged(none) == [.readBeforePlay(mpv)])
        #expect(m.callsChanged(ringing) == [.survey(2)])
        #expect(m.playerRead(mpv, status: .paused, survey: 2) == [])
        #expect(m.statusBeforePlay(mpv, .paused) == [])
        #expect(m.heldPlayers == [mpv])
        #expect(m.callsChanged(none) == [.readBeforePlay(mpv)])

        // ... or while Play is under way: it is paused again.
        var n = paused([mpv])
        _ = n.callsChanged(none)
        #expect(n.statusBeforePlay(mpv, .paused) == [.play(mpv)])
        #expect(n.callsChanged(ringing) == [.survey(2)])
        #expect(n.playerRead(mpv, status: .playing, survey: 2) == [], "already the agent's")
        #expect(n.playAnswered(mpv) == [.pause(mpv)])
        #expect(n.pauseAnswered(mpv, .paused) == [])
        #expect(n.callsChanged(none) == [.readBeforePlay(mpv)])
    }

    @Test func stopPlaysWhatWasPausedWhateverTheCalls() {
        var m = paused([mpv, vlc])
        _ = m.callsChanged(CallPhaseCounts(ringing: 1, answered: 1))
        #expect(m.stop() == [.readBeforePlay(mpv), .readBeforePlay(vlc)])
        #expect(m.statusBeforePlay(mpv, .paused) == [.play(mpv)])
        #expect(m.statusBeforePlay(vlc, .paused) == [.play(vlc)])
        #expect(m.callsChanged(ringing) == [], "stopping: no new quiet")
        #expect(m.stop() == [])
        _ = m.playAnswered(mpv)
        _ = m.playAnswered(vlc)
        #expect(m.isSettled)

        // A pause still under way at the stop is played again once answered.
        var n = paused([])
        _ = n.playerRead(mpv, status: .playing, survey: 1)
        #expect(n.stop() == [])
        #expect(n.pauseAnswered(mpv, .paused) == [.readBeforePlay(mpv)])
    }

    @Test func aFreshMachineHoldsNothing() {
        // Nothing is persisted: a start after a crash plays nothing, whatever the players read.
        var m = MediaPauseMachine(mode: .ringing, bannersEnabled: true)
        #expect(m.stop() == [] && m.isSettled)
        var n = MediaPauseMachine(mode: .ringing, bannersEnabled: true)
        #expect(n.callsChanged(none) == [])
        #expect(n.statusBeforePlay(mpv, .paused) == [] && n.playAnswered(mpv) == [])
    }

    /// Random calls, players, people and answers in any order; after each step: Pause only
    /// for a player read Playing by the current quiet's survey and not already held, Play
    /// only for one the agent paused, untouched since, with no call; everything settles.
    @Test func randomInterleavingsKeepThePromises() {
        for seed in 0..<2000 {
            var random = SplitMix64(seed: UInt64(seed) &* 104_729)
            var players = (0..<3).map { Player(busName: "org.mpris.MediaPlayer2.p\($0)", owner: ":1.\($0)") }
            var nextOwner = 3
            let mode: MediaPauseMode = random.chance(0.5) ? .ringing : .answered
            var m = MediaPauseMachine(mode: mode, bannersEnabled: true)
            var calls = CallPhaseCounts()
            var pending: [MediaPauseMachine.Action] = []
            var surveys: [Int: Set<Player>] = [:]
            // Players whose pause the agent asked for and the person has not touched since.
            var ours: Set<Player> = []
            var pauseInFlight: Set<Player> = []
            var playInFlight: Set<Player> = []
            var trace: [String] = []
            func fail(_ text: String) {
                Issue.record("seed \(seed): \(text)\n\(trace.suffix(16).joined(separator: "\n"))")
            }
            func take(_ actions: [MediaPauseMachine.Action]) -> Bool {
                trace.append("  → \(actions)")
                for action in actions {
                    switch action {
                    case .pause(let player):
                        if ours.contains(player) { fail("\(player) paused twice"); return false }
                        ours.insert(player)
                        pauseInFlight.insert(player)
                    case .play(let player):
                        let wanted = mode == .ringing ? calls.ringing + calls.answered > 0 : calls.answered > 0
                        if wanted { fail("\(player) played during a call"); return false }
                        if !ours.contains(player) { fail("\(player) played but not the agent's"); return false }
                        ours.remove(player)
                        playInFlight.insert(player)
                    case .survey(let number): surveys[number] = []
                    case .readBeforePlay: break
                    }
                }
                pending += actions
                return true
            }
            for _ in 0..<60 {
                let roll = Int.random(in: 0..<100, using: &random)
                var actions: [MediaPauseMachine.Action] = []
                switch roll {
                case 0..<25:
                    calls.ringing = max(0, calls.ringing + (random.chance(0.6) ? 1 : -1))
                    if random.chance(0.4), calls.ringing > 0 {
                        calls.ringing -= 1
                        calls.answered += 1
                    }
                    if random.chance(0.3) { calls.answered = max(0, calls.answered - 1) }
                    trace.append("calls \(calls)")
                    actions = m.callsChanged(calls)
                case 25..<35:
                    // The person plays, pauses or stops a player.
                    let player = players.randomElement(using: &random)!
                    let status: MediaPauseMachine.PlaybackStatus = [.playing, .paused, .stopped].randomElement(
                        using: &random)!
                    trace.append("person: \(player) \(status)")
                    m.statusChanged(owner: player.owner, to: status)
                    // Once the agent's own call is answered, anything but Paused is the person's doing.
                    if status != .paused, !pauseInFlight.contains(player), !playInFlight.contains(player) {
                        ours.remove(player)
                    }
                case 35..<40:
                    // It quits and comes back: the bus gives the new process a new unique name.
                    let index = Int.random(in: 0..<players.count, using: &random)
                    let player = players[index]
                    trace.append("vanished \(player)")
                    m.playerVanished(player)
                    ours.remove(player)
                    players[index].owner = ":1.\(nextOwner)"
                    nextOwner += 1
                default:
                    guard !pending.isEmpty else { continue }
                    let action = pending.remove(at: Int.random(in: 0..<pending.count, using: &random))
                    trace.append("answer \(action)")
                    switch action {
                    case .survey(let number):
                        for player in players where random.chance(0.7) {
                            actions += m.playerRead(
                                player, status: random.chance(0.6) ? .playing : .paused, survey: number)
                        }
                    case .pause(let player):
                        let outcome: MediaPauseMachine.PauseOutcome = [.paused, .refused, .noAnswer].randomElement(
                            using: &random)!
                        trace.append("  \(outcome)")
                        pauseInFlight.remove(player)
                        if outcome == .refused { ours.remove(player) }
                        actions = m.pauseAnswered(player, outcome)
                    case .readBeforePlay(let player):
                        let status: MediaPauseMachine.PlaybackStatus = random.chance(0.8) ? .paused : .playing
                        // A read answered after the player was taken back and paused anew is stale.
                        if status != .paused, m.held[player] == .checking { ours.remove(player) }
                        actions = m.statusBeforePlay(player, status)
                    case .play(let player):
                        playInFlight.remove(player)
                        actions = m.playAnswered(player)
                    }
                }
                guard take(actions) else { break }
                // What the machine holds (but is playing again) is what the agent asked to pause
                // and still counts as its own.
                let holding = Set(m.held.filter { $0.value != .playing }.keys)
                if !holding.isSubset(of: ours) {
                    fail("holds \(holding), asked to pause \(ours)")
                    break
                }
            }
            // The calls end and every call to a player is answered: nothing is left held.
            calls = CallPhaseCounts()
            var actions = m.callsChanged(calls)
            for _ in 0..<1000 {
                guard take(actions) else { break }
                guard !pending.isEmpty else { break }
                switch pending.removeFirst() {
                case .survey: actions = []
                case .pause(let player): actions = m.pauseAnswered(player, .paused)
                case .readBeforePlay(let player): actions = m.statusBeforePlay(player, .paused)
                case .play(let player): actions = m.playAnswered(player)
                }
            }
            if !m.isSettled { fail("still holds \(m.heldPlayers) after the calls ended") }
        }
    }
}
