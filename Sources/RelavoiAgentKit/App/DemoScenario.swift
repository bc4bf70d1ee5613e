import Foundation
import RelavoiSDK
import RelavoiSandboxKit

/// `--demo`: a sandbox in this process with one scripted call, so the whole
/// path (stream → agent → banner) runs with no account.
enum DemoScenario {
    static let sessionId = "ses_demo_0001"
    static let proxyNumber = "+2348000000001"

    /// Ringing, answered, ~20 s of timer, ended with a short linger, quit.
    static func script(ringAt: Double = 1, answerAt: Double = 4, endAt: Double = 25, quitAt: Double = 32) -> Scenario {
        let payload: [String: JSONValue] = ["sessionId": .string(sessionId), "proxyNumber": .string(proxyNumber)]
        var ended = payload
        ended["durationSeconds"] = .int(Int(endAt - answerAt))
        ended["cpaasSessionId"] = .string("cp_demo")
        return Scenario(steps: [
            .init(at: 0, action: .waitForClient),
            .init(at: ringAt, action: .event(type: "call.incoming", payload: payload, id: nil)),
            .init(at: answerAt, action: .event(type: "call.answered", payload: payload, id: nil)),
            .init(at: endAt, action: .event(type: "call.ended", payload: ended, id: nil)),
            .init(at: quitAt, action: .quit),
        ])
    }

    static var session: SandboxSession {
        SandboxSession(
            id: sessionId, proxyNumber: proxyNumber, state: "ACTIVE", metadata: ["label": .string("Chowdeck rider")])
    }
}
