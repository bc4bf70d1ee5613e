import FoundationEssentials
import RelavoiBanners
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

/// Carries out `ConnectionHealthMachine`'s actions: owns the machine, its one
/// timer and the one health notice (`noticeKey`, updated in place); tells
/// `onChange` each state it publishes (the D-Bus `Health` property, the panel
/// item). The agent feeds it the stream's state, token refusals and missing
/// credentials; what to tell and when is the machine's.
@MainActor
final class ConnectionHealthDriver {
    /// The notice's key in `BannerDriver`: one notice for every kind of problem.
    static let noticeKey = "notice:health"

    private var machine: ConnectionHealthMachine
    private let banners: BannerDriver
    private let phrases: ConnectionHealthPhrases
    private let now: () -> Date
    private lazy var timer = DeadlineTimer(slack: 0.01) { [weak self] in self?.tick() }
    /// The notice's "Sign in" was pressed (the agent opens the window there).
    var onSignIn: (@MainActor () -> Void)?
    /// Hears each published state.
    var onChange: (@MainActor (ConnectionHealth) -> Void)?

    /// What is told now.
    var current: ConnectionHealth { machine.current }

    /// Starts counting now (the stream is not connected yet). A notice asked
    /// for before `BannerDriver.prepare` shows once the server is known.
    init(
        phrases: ConnectionHealthPhrases, offlineAfter: TimeInterval = ConnectionHealthMachine.offlineAfter,
        banners: BannerDriver = .shared, now: @escaping () -> Date = Date.init
    ) {
        let start = now()
        machine = ConnectionHealthMachine(now: start, offlineAfter: offlineAfter)
        self.banners = banners
        self.phrases = phrases
        self.now = now
        timer.schedule(at: machine.nextDeadline, now: start)
    }

    func streamStateChanged(_ state: RelavoiConnectionState) {
        let time = now()
        perform(machine.streamStateChanged(state, now: time), now: time)
    }

    func tokenRefused() {
        let time = now()
        perform(machine.tokenRefused(now: time), now: time)
    }

    func credentialsMissing() {
        let time = now()
        perform(machine.credentialsMissing(now: time), now: time)
    }

    /// New credentials were taken (after `relavoi-agent login`).
    func credentialsChanged() {
        let time = now()
        perform(machine.credentialsChanged(now: time), now: time)
    }

    /// Closes the notice (the agent is stopping; the server would keep a lasting one).
    func stop() {
        timer.schedule(at: nil, now: now())
        banners.closeNotice(key: Self.noticeKey)
    }

    private func tick() {
        let time = now()
        perform(machine.tick(now: time), now: time)
    }

    private func perform(_ actions: [ConnectionHealthMachine.Action], now time: Date) {
        for action in actions {
            switch action {
            case .publish(let health):
                Log.info("connection health: \(health.name)")
                onChange?(health)
            case .showNotice(let notice), .updateNotice(let notice):
                // Showing under the same key replaces the notice in place.
                banners.showNotice(phrases.notice(notice, clock: LocalClock.hoursMinutes), key: Self.noticeKey) {
                    [weak self] button in
                    if button == ConnectionHealthPhrases.signInButton { self?.onSignIn?() }
                }
            case .closeNotice:
                banners.closeNotice(key: Self.noticeKey)
            case .armTimer(let deadline):
                timer.schedule(at: deadline, now: time)
            case .cancelTimer:
                timer.schedule(at: nil, now: time)
            }
        }
    }
}
