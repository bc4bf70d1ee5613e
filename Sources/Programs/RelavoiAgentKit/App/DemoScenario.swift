import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib

/// `--demo`: relavoi-sandbox as a child process with one scripted call, so
/// the whole path (stream → agent → banner) runs with no account. The
/// installed agent holds no sandbox code: it starts the `relavoi-sandbox`
/// program installed beside it.
enum DemoScenario {
    static let sessionId = "ses_demo_0001"
    static let proxyNumber = "+2348000000001"

    /// The scenario file: the session, then ringing, answered, ~20 s of timer,
    /// ended with a short linger, quit (relavoi-sandbox's format, docs/sandbox.md).
    static func script(ringAt: Double = 1, answerAt: Double = 4, endAt: Double = 25, quitAt: Double = 32) -> String {
        let call = "\"sessionId\":\"\(sessionId)\",\"proxyNumber\":\"\(proxyNumber)\""
        return [
            "{\"at\":0,\"session\":{\"id\":\"\(sessionId)\",\"proxyNumber\":\"\(proxyNumber)\",\"state\":\"ACTIVE\",\"metadata\":{\"label\":\"Chowdeck rider\"}}}",
            "{\"at\":0,\"waitForClient\":true}",
            "{\"at\":\(ringAt),\"event\":\"call.incoming\",\"payload\":{\(call)}}",
            "{\"at\":\(answerAt),\"event\":\"call.answered\",\"payload\":{\(call)}}",
            "{\"at\":\(endAt),\"event\":\"call.ended\",\"payload\":{\(call),\"durationSeconds\":\(Int(endAt - answerAt)),\"cpaasSessionId\":\"cp_demo\"}}",
            "{\"at\":\(quitAt),\"quit\":true}",
        ].joined(separator: "\n") + "\n"
    }
}
