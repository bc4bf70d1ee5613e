import RelavoiCore
import RelavoiTestSupport

/// A tenant firehose: mixed frames, most of them for sessions on proxy
/// numbers the agent does not follow (so no banner shows), plus one followed
/// call (created, ringing, answered, ended) every `followedEvery` frames.
/// Deterministic: the same frames in every run and in the micro benchmark;
/// each `round` has ids of its own (the agent would drop repeated ones).
struct FirehoseFrames {
    /// The agent under test follows these (`proxy-numbers`); calls use the
    /// first, markers the second.
    static let followedProxies = ["+15550000001", "+15550000002"]

    var frames: [String] = []
    var followedCalls = 0
    var byKind: [String: Int] = [:]

    init(count: Int, tenantId: String, followedEvery: Int = 1000, round: Int = 0) {
        var factory = FrameFactory(tenantId: tenantId, prefix: round == 0 ? "fh" : "fh\(round)")
        let tag = round == 0 ? "" : "\(round)"
        let time = FrameFactory.timestamp()
        var live: [String] = []
        var nextSession = 0
        var random = SplitMix64(seed: 0x5eed)
        frames.reserveCapacity(count)

        func add(_ kind: String, _ frame: String) {
            frames.append(frame)
            byKind[kind, default: 0] += 1
        }
        func created() {
            nextSession += 1
            let id = "oth\(tag)_\(nextSession)"
            live.append(id)
            if live.count > 512 { live.removeFirst(live.count - 512) }
            add(
                "session.created",
                factory.envelope(
                    "session.created", [("sessionId", id), ("proxyNumber", Self.otherProxy(nextSession))],
                    timestamp: time))
        }

        while frames.count < count {
            if frames.count % followedEvery == followedEvery - 4 {
                followedCalls += 1
                let id = "fol\(tag)_\(followedCalls)"
                let proxy = Self.followedProxies[0]
                for type in ["session.created", "call.incoming", "call.answered", "call.ended"] {
                    add(
                        "followed " + type,
                        factory.envelope(type, [("sessionId", id), ("proxyNumber", proxy)], timestamp: time))
                }
                continue
            }
            guard live.count >= 64 else {
                created()
                continue
            }
            let session = live[Int(random.next() % UInt64(live.count))]
            let roll = random.next() % 100
            switch roll {
            case 0..<25: created()
            case 25..<35:
                add(
                    "session.activated",
                    factory.envelope("session.activated", [("sessionId", session)], timestamp: time))
            case 35..<50:
                add(
                    "call.incoming",
                    factory.envelope(
                        "call.incoming", [("sessionId", session), ("proxyNumber", "+16660000000")], timestamp: time))
            case 50..<62:
                add(
                    "call.answered",
                    factory.envelope(
                        "call.answered", [("sessionId", session), ("cpaasSessionId", "cp_\(session)")], timestamp: time)
                )
            case 62..<74:
                add(
                    "call.ended",
                    factory.envelope(
                        "call.ended", [("sessionId", session)], numbers: [("durationSeconds", 42)], timestamp: time))
            case 74..<82:
                add("sms.received", factory.envelope("sms.received", [("sessionId", session)], timestamp: time))
            case 82..<90:
                // An expired session leaves the pool: nothing refers to it again.
                live.removeAll { $0 == session }
                add("session.expired", factory.envelope("session.expired", [("sessionId", session)], timestamp: time))
            case 90..<95:
                add(
                    "unknown type",
                    factory.envelope(
                        "recording.ready", [("sessionId", session), ("url", "https://example.invalid/r.mp3")],
                        timestamp: time))
            default:
                add(
                    "flat call.incoming",
                    factory.flat(
                        "call.incoming", [("sessionId", session), ("proxyNumber", "+16660000000")], timestamp: time))
            }
        }
    }

    /// Proxy numbers no banner follows.
    static func otherProxy(_ index: Int) -> String {
        let digits = String(index % 10_000_000)
        return "+1666" + String(repeating: "0", count: 7 - digits.count) + digits
    }
}
