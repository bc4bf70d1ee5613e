import RelavoiProcFS

/// Everything one repetition measured; nil where a phase failed (see `failures`).
struct RunResult: Codable, Equatable {
    var run: Int
    var startupConnectedMilliseconds: Double?
    var startupDemoBannerMilliseconds: Double?
    /// relavoi-window's process start to its first frame, on dunst's Xvfb.
    var windowFirstFrameMilliseconds: Double?
    var memoryAfterConnect: ProcessProbe.Memory?
    var idle: CPUWindow?
    var oneBanner: CPUWindow?
    var tenBanners: CPUWindow?
    /// Run 1 only: /proc/PID/smaps summed per mapped file, connected before any call and with 10 banners.
    var residentByMappingAtConnect: [MappingShare]?
    var residentByMapping: [MappingShare]?
    var eventToBanner: [EventToBanner.Result] = []
    var notifySend: NotifySendBaseline.Result?
    /// `relavoi-bench ticker --banners 1`: a minimal long-lived GDBus client.
    var referenceClient: CPUWindow?
    /// dunst's own memory with 10 of the agent's live banners on screen (the agent's private
    /// memory's yardstick), measured in the same run.
    var dunstTenShown: ProcessProbe.Memory?
    var sessions: TenantLoad.Sessions?
    /// The median round (by frames per CPU-second) of `firehoseRounds`.
    var firehose: TenantLoad.Firehose?
    var firehoseRounds: [TenantLoad.Firehose] = []
    static let firehoseRoundCount = 3
    var failures: [String] = []

    init(run: Int) { self.run = run }

    func eventToBanner(on server: NotificationServer.Kind) -> EventToBanner.Result? {
        eventToBanner.first { $0.server == server.rawValue }
    }
}
