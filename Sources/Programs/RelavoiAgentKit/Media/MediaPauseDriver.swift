import FoundationEssentials
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiMachines
import RelavoiSettings

/// Carries out `MediaPauseMachine` for the agent: the calls the person is shown come from
/// `CallDriver`, and the machine's actions become MPRIS calls (`MPRISBus`). While the
/// machine follows players, their `PlaybackStatus` changes and their names leaving the
/// bus are heard, so a player the person takes back, or one that quits, is left alone.
@MainActor
final class MediaPauseDriver {
    private let bus: BusConnection
    private var machine: MediaPauseMachine
    private var statusChanges: BusSignalSubscription?
    private var ownerChanges: BusSignalSubscription?
    /// `stop(within:)` waiting for the players' answers.
    private var settled: CheckedContinuation<Void, Never>?
    private var stopTimer: GLibTimer?

    private init(bus: BusConnection, machine: MediaPauseMachine) {
        self.bus = bus
        self.machine = machine
    }

    /// Follows `calls` for `pause-media`; nil when it is off (or banners are, or there is no bus).
    static func start(settings: AgentSettings, calls: CallDriver, bus: BusConnection?) -> MediaPauseDriver? {
        let machine = MediaPauseMachine(mode: settings.pauseMedia, bannersEnabled: settings.banners.enabled)
        guard machine.mode != .off, let bus else { return nil }
        let driver = MediaPauseDriver(bus: bus, machine: machine)
        calls.onShownCallsChanged = { [weak driver] counts in driver?.callsChanged(counts) }
        Log.debug("media: players are paused for calls (pause-media = \(machine.mode.rawValue))")
        return driver
    }

    private func callsChanged(_ counts: CallPhaseCounts) {
        run(machine.callsChanged(counts))
    }

    /// At exit: what the agent paused plays again, whatever the calls; waits for the
    /// players' answers, `timeout` seconds at most.
    func stop(within timeout: Double) async {
        run(machine.stop())
        guard !machine.isSettled else { return }
        await withCheckedContinuation { continuation in
            settled = continuation
            stopTimer = GLibTimer.once(after: timeout) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    Log.info("media: \(self.machine.heldPlayers) did not answer in time; exiting anyway")
                    self.resumeStop()
                }
            }
        }
    }

    private func resumeStop() {
        stopTimer?.cancel()
        stopTimer = nil
        settled?.resume()
        settled = nil
    }

    // MARK: - Carrying out the machine's actions

    private func run(_ actions: [MediaPauseMachine.Action]) {
        // Listening starts before the survey's calls go out: the bus sees the match rules first.
        follow(machine.followsPlayers)
        for action in actions { perform(action) }
        if machine.isSettled, settled != nil { resumeStop() }
    }

    private func perform(_ action: MediaPauseMachine.Action) {
        switch action {
        case .survey(let number):
            MPRISBus.eachPlayer(on: bus) { [weak self] player, status in
                guard let self else { return }
                self.run(self.machine.playerRead(player, status: status, survey: number))
            }
        case .pause(let player):
            Log.info("media: pausing \(player) for a call")
            MPRISBus.call("Pause", player, on: bus) { [weak self] error in
                guard let self else { return }
                let outcome: MediaPauseMachine.PauseOutcome
                switch error {
                case nil: outcome = .paused
                case let error? where MPRISBus.isTimeout(error):
                    Log.info("media: \(player) did not answer Pause (\(error)); played again only if it paused")
                    outcome = .noAnswer
                case let error?:
                    Log.info("media: \(player) refused Pause (\(error))")
                    outcome = .refused
                }
                self.run(self.machine.pauseAnswered(player, outcome))
            }
        case .readBeforePlay(let player):
            MPRISBus.playbackStatus(of: player, on: bus) { [weak self] status in
                guard let self else { return }
                if status != .paused {
                    Log.info("media: \(player) reads \(status?.rawValue ?? "nothing"): left as it is")
                }
                self.run(self.machine.statusBeforePlay(player, status))
            }
        case .play(let player):
            Log.info("media: playing \(player) again")
            MPRISBus.call("Play", player, on: bus) { [weak self] error in
                guard let self else { return }
                if let error { Log.info("media: \(player) refused Play (\(error))") }
                self.run(self.machine.playAnswered(player))
            }
        }
    }

    /// Players' status changes and names leaving, heard only while they matter.
    private func follow(_ on: Bool) {
        guard on != (statusChanges != nil) else { return }
        guard on else {
            statusChanges?.cancel()
            ownerChanges?.cancel()
            (statusChanges, ownerChanges) = (nil, nil)
            return
        }
        statusChanges = BusSignalSubscription(
            connection: bus, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: MPRISBus.path, arg0: MPRISBus.playerInterface
        ) { [weak self] signal in
            // (interface, changed a{sv}, invalidated as)
            guard let self, let changed = signal.arguments.dropFirst().first?.children else { return }
            for case .dictEntry(.string("PlaybackStatus"), .variant(.string(let text))) in changed {
                Log.debug("media: \(signal.sender) says \(text)")
                self.machine.statusChanged(owner: signal.sender, to: MediaPauseMachine.PlaybackStatus(rawValue: text))
                self.run([])
            }
        }
        ownerChanges = BusSignalSubscription(
            connection: bus, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", arg0: String(MPRISBus.namePrefix.dropLast()), arg0IsNamespace: true
        ) { [weak self] signal in
            // (name, old owner, new owner)
            let names = signal.arguments.compactMap(\.stringValue)
            guard let self, names.count == 3, !names[1].isEmpty else { return }
            self.machine.playerVanished(MediaPauseMachine.Player(busName: names[0], owner: names[1]))
            self.run([])
        }
    }
}
