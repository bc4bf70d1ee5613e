import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiSandboxKit
import RelavoiStream
import RelavoiTestSupport
import XCTest

@testable import RelavoiSDK

/// Integration tests of the SDK's stream against a real `SandboxServer`
/// on loopback. Synchronous XCTest methods: the test thread is the main
/// thread and runs the GLib loop itself (`LoopWait.until`).
class StreamTestCase: XCTestCase {
    /// A short-timing config for the sandbox: fast, deterministic backoff.
    @MainActor
    static func streamConfig(_ server: SandboxServer) -> RelavoiConfig {
        var config = RelavoiConfig(baseURL: URL(string: server.baseURL)!)
        config.backoffBase = 0.05
        config.backoffCap = 0.4
        config.backoffJitter = 0
        config.stableConnectionInterval = 0
        config.connectTimeout = 5
        config.requestTimeout = 5
        return config
    }

    /// Starts a sandbox and an SDK instance against it, runs `body`, then
    /// disconnects and stops everything. Errors thrown by `body` fail the test.
    func withStream(
        _ options: SandboxServer.Options = .init(),
        apiSecret: String? = nil,
        configure: @MainActor (inout RelavoiConfig) -> Void = { _ in },
        file: StaticString = #filePath, line: UInt = #line,
        _ body: @MainActor (SandboxServer, Relavoi, StreamLogRecorder) throws -> Void
    ) {
        MainActor.assumeIsolated {
            let server = SandboxServer(options: options)
            do {
                try server.start()
            } catch {
                return XCTFail("sandbox start: \(error)", file: file, line: line)
            }
            var config = Self.streamConfig(server)
            configure(&config)
            let relavoi = Relavoi(
                apiKey: server.options.apiKey, apiSecret: apiSecret ?? server.options.apiSecret,
                tenantId: server.options.tenantId, config: config)
            let logs = StreamLogRecorder()
            defer {
                _ = try? awaitOnLoop(timeout: 5) { await relavoi.events.disconnect() }
                server.stop()
                LoopWait.until(timeout: 0.1) { false }
                // The API secret never reaches a log line.
                let secret = apiSecret ?? server.options.apiSecret
                for (_, text) in logs.lines where text.contains(secret) {
                    XCTFail("secret in a log line: \(text)", file: file, line: line)
                }
            }
            do {
                try body(server, relavoi, logs)
            } catch {
                XCTFail("\(error)", file: file, line: line)
            }
        }
    }
}

@MainActor
final class StreamLogRecorder {
    private let start: Int
    init() {
        LogCapture.start()
        start = LogCapture.mark
    }
    /// The stream's log lines since this recorder was made (GLib's log, as a person reads it).
    var lines: [(LogCapture.Level, String)] {
        LogCapture.lines(from: start).filter { $0.1.hasPrefix("Relavoi stream: ") }
    }
    func contains(_ fragment: String) -> Bool { lines.contains { $0.1.contains(fragment) } }
    func count(_ fragment: String) -> Int { lines.filter { $0.1.contains(fragment) }.count }
    /// The waits the stream planned ("retrying in X s", "reconnecting in X s")
    /// in the lines from `index` on: what it will do, read without a clock.
    func plannedDelays(from index: Int = 0) -> [Double] {
        lines.dropFirst(index).compactMap { _, text in
            guard let range = text.range(of: #"(retrying|reconnecting) in [0-9.]+ s"#, options: .regularExpression)
            else { return nil }
            return Double(text[range].split(separator: " ")[2])
        }
    }
    /// Lines from `index` on that start or plan an attempt (a socket, a retry, a reconnect).
    func attempts(from index: Int) -> [String] {
        lines.dropFirst(index).map(\.1).filter { $0.contains("connecting") || $0.contains("retrying") }
    }
}

extension SandboxServer {
    /// Keep-alive pings the server has received: each one is a wake-up of
    /// the client's timer, which checks its deadlines before it pings.
    var pingsReceived: Int { receivedMessages.filter { $0 == "ping" }.count }
}

struct StreamLoopTimeout: Error, CustomStringConvertible {
    var description: String { "timed out waiting on the GLib loop" }
}

@MainActor
private final class StreamResultBox<T> {
    var result: Result<T, Error>?
}

/// Runs `operation` as a main-actor task and the GLib loop until it finishes.
@MainActor
@discardableResult
func awaitOnLoop<T: Sendable>(timeout: Double = 10, _ operation: @escaping @MainActor () async throws -> T) throws -> T
{
    let box = StreamResultBox<T>()
    Task { @MainActor in
        do {
            box.result = .success(try await operation())
        } catch {
            box.result = .failure(error)
        }
    }
    guard LoopWait.until(timeout: timeout, { box.result != nil }) else { throw StreamLoopTimeout() }
    return try box.result!.get()
}

/// Runs the loop until `condition` holds; false on timeout.
@MainActor
@discardableResult
func loopUntil(timeout: Double = 10, _ condition: @MainActor () -> Bool) -> Bool {
    LoopWait.until(timeout: timeout) { condition() }
}

/// Runs the loop for `seconds`.
@MainActor
func loopFor(_ seconds: Double) {
    LoopWait.until(timeout: seconds) { false }
}

/// Records what listeners see.
@MainActor
final class EventRecorder {
    var events: [RelavoiEvent] = []
    var ids: [String?] = []
    var states: [RelavoiConnectionState] = []

    var sessionIds: [String] {
        events.map { event in
            switch event {
            case .sessionCreated(let id, _, _), .sessionActivated(let id, _), .sessionExpired(let id, _),
                .callIncoming(let id, _, _), .callAnswered(let id, _), .callEnded(let id, _, _),
                .smsReceived(let id, _):
                return id
            case .unknown(let type, _):
                return type
            }
        }
    }
}
