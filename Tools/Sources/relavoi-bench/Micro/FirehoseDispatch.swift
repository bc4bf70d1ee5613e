import Foundation
import RelavoiAgentKit
import RelavoiCore
import RelavoiMachines
import RelavoiSDK
import RelavoiSettings
import RelavoiTestSupport

/// The firehose in process: FrameDecoder alone, then decode + de-duplication
/// + the agent's real CallDriver (following two proxy numbers,
/// as `proxy-numbers` does), frames per second.
@MainActor
enum FirehoseDispatch {
    struct Result: Codable, Equatable {
        var frames: Int
        var followedCalls: Int
        var byKind: [String: Int]
        var decodeFramesPerSecond: Spread?
        var dispatchFramesPerSecond: Spread?
    }

    /// REST look-ups answer at once with nothing (no network in a micro benchmark).
    final class NoLookup: SessionLookup {
        func session(_ sessionId: String) async -> JSONValue? { nil }
        func verify(userPhone: String) async -> JSONValue? { nil }
        func liveSessionIds() async -> Set<String>? { [] }
    }

    static func run(frames count: Int, repeats: Int) -> Result {
        let load = FirehoseFrames(count: count, tenantId: "5a4d0000-0000-4000-8000-00000000c0de")
        let bytes = load.frames.map { Array($0.utf8) }
        let decoder = FrameDecoder()
        var sink = Sink()

        var decodeRounds: [Double?] = []
        var dispatchRounds: [Double?] = []
        for _ in 0..<repeats {
            var start = Clock.now()
            for frame in bytes {
                frame.withUnsafeBytes { raw in
                    if case .event(_, let id)? = try? decoder.decode(utf8: raw) { sink.take(id?.utf8.count ?? 1) }
                }
            }
            decodeRounds.append(Double(bytes.count) / (Double(Clock.now() - start) / 1e9))

            var settings = AgentSettings()
            settings.proxyNumbers = FirehoseFrames.followedProxies
            let controller = InProcessCallDriver.make(settings: settings, lookup: NoLookup())
            var dedupe = EventDeduplicator()
            start = Clock.now()
            for frame in bytes {
                frame.withUnsafeBytes { raw in
                    if case .event(let event, let id)? = try? decoder.decode(utf8: raw), dedupe.shouldDeliver(id: id) {
                        controller.handle(event)
                    }
                }
            }
            dispatchRounds.append(Double(bytes.count) / (Double(Clock.now() - start) / 1e9))
            controller.closeAll()
            BusWait.pass(0.2)  // the look-up tasks finish
        }
        InProcessCallDriver.shutDownBanners(timeout: 1)
        if sink.value == 42 { print("") }
        return Result(
            frames: bytes.count, followedCalls: load.followedCalls, byKind: load.byKind,
            decodeFramesPerSecond: Spread(decodeRounds), dispatchFramesPerSecond: Spread(dispatchRounds))
    }
}
