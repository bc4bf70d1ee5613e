import Foundation
import RelavoiCore
import RelavoiSandboxKit

/// Plays calls on the sandbox's stream, one frame at a time, for the agent
/// under test; the sandbox also knows each session for the agent's REST look-ups.
@MainActor
struct CallScript {
    struct Call {
        var sessionId: String
        var proxyNumber: String
        var label: String
    }

    let sandbox: SandboxServer
    private var frames: FrameFactory
    private var serial = 0
    private let tag: String

    init(sandbox: SandboxServer, tag: String) {
        self.sandbox = sandbox
        self.tag = tag
        frames = FrameFactory(tenantId: sandbox.options.tenantId, prefix: "bench-\(tag)")
    }

    /// A new session on a proxy number no other call of this run used.
    mutating func newCall(proxyNumber: String? = nil) -> Call {
        serial += 1
        let digits = String(serial % 10_000_000)
        let call = Call(
            sessionId: "ses_\(tag)_\(serial)",
            proxyNumber: proxyNumber ?? "+1555" + String(repeating: "0", count: 7 - digits.count) + digits,
            label: "Caller \(tag)-\(serial)")
        sandbox.upsertSession(
            SandboxSession(id: call.sessionId, proxyNumber: call.proxyNumber, metadata: ["label": .string(call.label)]))
        return call
    }

    /// The frame, built now (not timed); `send` it when the clock runs.
    mutating func frame(_ type: String, _ call: Call) -> String {
        switch type {
        case "session.created", "call.incoming":
            return frames.envelope(type, [("sessionId", call.sessionId), ("proxyNumber", call.proxyNumber)])
        case "call.answered":
            return frames.envelope(type, [("sessionId", call.sessionId), ("cpaasSessionId", "cp_" + call.sessionId)])
        default:
            return frames.envelope(type, [("sessionId", call.sessionId)])
        }
    }

    func send(_ frame: String) { sandbox.send(text: frame) }

    mutating func send(_ type: String, _ call: Call) { send(frame(type, call)) }
}
