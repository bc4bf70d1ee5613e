import RelavoiTestSupport
import XCTest

/// The mock as tests use it: a test skips where it cannot start, and fails
/// with what the server got when a banner does not come.
extension MockNotificationServer {
    /// Starts the mock and waits until it owns `org.freedesktop.Notifications`;
    /// skips the test where there is no private bus or no python3-dbusmock.
    public static func start(capabilities: String? = nil) throws -> MockNotificationServer {
        do {
            return try launch(capabilities: capabilities)
        } catch let error as Unavailable {
            throw XCTSkip(error.description)
        }
    }

    /// How long a test waits for a banner by default: generous, as a wait
    /// ends when the banner comes.
    public static let notifyWaitTimeout = 30.0

    /// Waits for a `Notify` call matching `predicate` and returns the latest
    /// such; when none comes, fails the test with the calls so far and `context`
    /// (the agent's log, say).
    @discardableResult
    public func waitForNotify(
        timeout: Double = notifyWaitTimeout, context: @autoclosure () -> String = "",
        file: StaticString = #filePath, line: UInt = #line, _ predicate: @escaping (NotifyCall) -> Bool
    ) -> NotifyCall? {
        let found = latestNotify(timeout: timeout, predicate)
        if found == nil {
            let calls = notifyCalls().map { "\($0.summary)|\($0.body)|\($0.hints["category"] ?? "")" }
            XCTFail("no matching Notify; calls: \(calls)\n\(context())", file: file, line: line)
        }
        return found
    }
}
