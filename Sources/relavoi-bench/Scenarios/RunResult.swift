/// Everything one repetition measured; nil where a phase failed (see `failures`).
struct RunResult: Codable, Equatable {
    var run: Int
    var startupConnectedMilliseconds: Double?
    var startupDemoBannerMilliseconds: Double?
    var memoryAfterConnect: ProcessProbe.Memory?
    var idle: CPUWindow?
    var oneBanner: CPUWindow?
    var tenBanners: CPUWindow?
    var residentByMapping: [MappingShare]?
    var eventToBanner: [EventToBanner.Result] = []
    var notifySend: NotifySendBaseline.Result?
    /// `relavoi-bench ticker --banners 1`: a minimal long-lived GDBus client.
    var referenceClient: CPUWindow?
    /// The same with the agent's presenter design (synchronous calls on a thread).
    var referenceThreadClient: CPUWindow?
    var sessions: TenantLoad.Sessions?
    var firehose: TenantLoad.Firehose?
    var failures: [String] = []

    init(run: Int) { self.run = run }

    func eventToBanner(on server: NotificationServer.Kind) -> EventToBanner.Result? {
        eventToBanner.first { $0.server == server.rawValue }
    }
}
