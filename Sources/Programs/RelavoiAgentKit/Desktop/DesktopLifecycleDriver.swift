import FoundationEssentials
import Glibc
import RelavoiBanners
import RelavoiCore
import RelavoiDBus
import RelavoiDesktop
import RelavoiGLib
import RelavoiMachines
import RelavoiStream
import RelavoiStreamEngine

/// Carries out `DesktopLifecycleMachine` for the agent: logind's sleep and resume,
/// GIO's network monitor and the session bus feed it; its actions go to the
/// stream, the banners and the agent's `stop`.
@MainActor
public final class DesktopLifecycleDriver {
    private static var running: DesktopLifecycleDriver?

    /// Starts following the desktop for the agent's lifetime; `sessionBus`
    /// is the agent's shared session connection, whose closing is logout.
    @discardableResult
    package static func start(
        stream: StreamConnectionDriver, callDriver: CallDriver, sessionBus: BusConnection?,
        banners: BannerDriver = .shared, stop: @escaping @MainActor () -> Void
    ) -> DesktopLifecycleDriver {
        running?.shutDown()
        let wiring = DesktopLifecycleDriver(
            stream: stream, callDriver: callDriver, banners: banners,
            calls: RelavoiCallsInProgressSource(stream: stream), stop: stop)
        running = wiring
        wiring.begin(sessionBus: sessionBus)
        return wiring
    }

    private let stream: StreamConnectionDriver
    private let callDriver: CallDriver
    private let banners: BannerDriver
    private let calls: CallsInProgressSource
    private let stop: @MainActor () -> Void
    private var lifecycle = DesktopLifecycleMachine()
    private var logind: LogindWatch?
    private var network: NetworkWatch?
    private var sessionBus: SessionBusWatch?
    private var networkTimer: GLibTimer?
    private var reconciling = false
    private var reconcileAgain = false
    private let listenerKey = "desktop-lifecycle"
    private let clockOrigin = ContinuousClock.now

    private init(
        stream: StreamConnectionDriver, callDriver: CallDriver, banners: BannerDriver, calls: CallsInProgressSource,
        stop: @escaping @MainActor () -> Void
    ) {
        self.stream = stream
        self.callDriver = callDriver
        self.banners = banners
        self.calls = calls
        self.stop = stop
    }

    /// The lifecycle's state (diagnostics and tests).
    public var state: DesktopLifecycleMachine { lifecycle }

    private func begin(sessionBus connection: BusConnection?) {
        stream.addConnectionStateListener(listenerKey) { [weak self] state in
            guard let self else { return }
            self.apply(self.lifecycle.streamStateChanged(state))
        }

        let logind = LogindWatch { [weak self] event in
            guard let self else { return }
            switch event {
            case .appeared: self.apply(self.lifecycle.sleepServiceAppeared())
            case .prepareForSleep(true): self.apply(self.lifecycle.prepareForSleep())
            case .prepareForSleep(false): self.apply(self.lifecycle.resumed())
            }
        }
        self.logind = logind
        logind.start()

        let network = NetworkWatch(
            onReady: { [weak self] available in self?.lifecycle.networkKnown(available: available) },
            onChange: { [weak self] available in
                guard let self else { return }
                self.apply(self.lifecycle.networkChanged(available: available, now: self.now()))
            })
        self.network = network
        network.start()

        if let connection {
            let sessionBus = SessionBusWatch(connection: connection) { [weak self] in
                guard let self else { return }
                self.apply(self.lifecycle.sessionBusClosed())
            }
            self.sessionBus = sessionBus
            sessionBus.start()
        } else {
            Log.info("no session bus: logout is noticed by SIGTERM only")
        }
    }

    private func shutDown() {
        stream.removeConnectionStateListener(listenerKey)
        networkTimer?.cancel()
        logind?.stop()
        network?.stop()
        sessionBus?.stop()
    }

    private func now() -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - clockOrigin).components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    // MARK: Actions

    private func apply(_ actions: [DesktopLifecycleMachine.Action]) {
        for action in actions {
            switch action {
            case .takeSleepLock:
                logind?.takeLock()
            case .releaseSleepLock:
                logind?.releaseLock()
            case .closeStream:
                Task { @MainActor [weak self] in
                    // A resume may already have come (a short or aborted sleep).
                    guard let self, self.lifecycle.phase == .closingForSleep else { return }
                    await self.stream.disconnect()
                    self.apply(self.lifecycle.streamClosedForSleep())
                }
            case .openStream:
                Task { @MainActor [weak self] in
                    guard let self, self.lifecycle.phase == .awake else { return }
                    await self.stream.connect()
                }
            case .reconnectNow:
                stream.reconnectNow()
            case .refreshTimers:
                // The banner timer (monotonic clock) may fire late after resume.
                banners.clockJumped()
            case .reconcileWithServer:
                reconcile()
            case .armNetworkTimer(let delay):
                networkTimer?.cancel()
                networkTimer = GLibTimer.once(after: delay) { [weak self] in
                    MainActor.assumeIsolated {
                        guard let self else { return }
                        self.networkTimer = nil
                        self.apply(self.lifecycle.networkTimerFired(now: self.now()))
                    }
                }
            case .cancelNetworkTimer:
                networkTimer?.cancel()
                networkTimer = nil
            case .endAgent:
                stop()
            case .log(let level, let text):
                switch level {
                case .debug: Log.debug(text)
                case .info: Log.info(text)
                case .message: Log.message(text)
                }
            }
        }
    }

    private func reconcile() {
        guard !reconciling else {
            reconcileAgain = true
            return
        }
        reconciling = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            await self.callDriver.reconcileWithServer(callsInProgress: self.calls)
            Log.debug("the reconcile after connecting is over")  // also after a failed listing (warned above)
            self.reconciling = false
            let again = self.reconcileAgain
            self.reconcileAgain = false
            if again, self.stream.connectionState == .connected { self.reconcile() }
        }
    }
}
