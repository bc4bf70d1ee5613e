import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import XCTest

/// Tests that talk to a real sandbox over loopback. Synchronous on purpose:
/// the test thread is the main thread and runs the GLib loop itself.
class SandboxTestCase: XCTestCase {
    /// A started sandbox, a client, and clean-up afterwards.
    /// An error thrown by `body` fails the test.
    func withSandbox(
        _ options: SandboxServer.Options = .init(), file: StaticString = #filePath, line: UInt = #line,
        _ body: @MainActor (SandboxServer, SoupTestClient) throws -> Void
    ) {
        MainActor.assumeIsolated { () -> Void in
            let server = SandboxServer(options: options)
            do {
                try server.start()
            } catch {
                return XCTFail("start: \(error)", file: file, line: line)
            }
            XCTAssertNotEqual(server.port, 0)
            let client = SoupTestClient()
            defer {
                server.stop()
                spin(0.05)
            }
            do {
                try body(server, client)
            } catch {
                XCTFail("\(error)", file: file, line: line)
            }
        }
    }
}

@MainActor
func credentialsBody(_ server: SandboxServer, secret: String? = nil) -> String {
    "{\"apiKey\":\"\(server.options.apiKey)\",\"apiSecret\":\"\(secret ?? server.options.apiSecret)\"}"
}

/// A WebSocket with a fresh token, after its welcome frame.
@MainActor
func connectedSocket(
    _ server: SandboxServer, _ client: SoupTestClient, file: StaticString = #filePath, line: UInt = #line
) -> TestWebSocket? {
    guard let token = client.token(from: server) else {
        XCTFail("no token", file: file, line: line)
        return nil
    }
    guard let socket = client.webSocket(server.webSocketURL + "?token=" + token, file: file, line: line) else {
        return nil
    }
    XCTAssertTrue(socket.waitForMessages(1), "no welcome frame", file: file, line: line)
    return socket
}
