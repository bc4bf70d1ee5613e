import Foundation
import RelavoiGLib

/// A scenario being played: one GLib timer at a time, set to the next step.
/// Steps run in file order; a step whose time has passed runs at once.
@MainActor
public final class ScenarioPlayback {
    public let scenario: Scenario
    private weak var server: SandboxServer?
    private var index = 0
    /// Monotonic seconds the current `at`s count from.
    private var base = 0.0
    private var timer: GLibTimer?
    private var waitingForClient = false

    public private(set) var isFinished = false
    /// Steps carried out so far.
    public private(set) var stepsPlayed = 0
    public var onFinished: (() -> Void)?

    init(scenario: Scenario, server: SandboxServer) {
        self.scenario = scenario
        self.server = server
    }

    func start() {
        base = Self.now()
        advance()
    }

    public func cancel() {
        timer?.cancel()
        timer = nil
        waitingForClient = false
        guard !isFinished else { return }
        isFinished = true
        server?.playbackFinished(self)
    }

    /// Called by the server after each welcome frame.
    func clientConnected() {
        guard waitingForClient else { return }
        waitingForClient = false
        base = Self.now()
        index += 1
        stepsPlayed += 1
        advance()
    }

    /// Runs every step that is due, then sets a timer for the next one.
    private func advance() {
        timer = nil
        while !isFinished, index < scenario.steps.count {
            guard let server else { return cancel() }
            let step = scenario.steps[index]
            let wait = base + step.at - Self.now()
            if wait > 0.0005 {
                timer = GLibTimer.once(after: wait) { [weak self] in
                    MainActor.assumeIsolated { self?.advance() }
                }
                return
            }
            if step.action == .waitForClient {
                if server.liveClientCount == 0 {
                    waitingForClient = true
                    return
                }
                base = Self.now()
            } else {
                server.perform(step.action)
            }
            index += 1
            stepsPlayed += 1
        }
        guard !isFinished else { return }
        isFinished = true
        server?.playbackFinished(self)
        onFinished?()
    }

    private static func now() -> Double { ProcessInfo.processInfo.systemUptime }
}
