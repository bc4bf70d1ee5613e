import Foundation
import RelavoiGLib
import RelavoiStream
import RelavoiTestSupport
import XCTest

@testable import RelavoiSDK

/// Certificate checks are on: a TLS server with a self-signed certificate, or
/// one for another host name, is refused (openssl s_server on 127.0.0.1 stands
/// in for the Relavoi API).
final class TLSRefusalTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw XCTSkip("openssl is missing")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testSelfSignedCertificateIsRefused() throws {
        try assertRefused(commonName: "localhost")
    }

    func testCertificateForAnotherHostIsRefused() throws {
        try assertRefused(commonName: "api.relavoi.example")
    }

    private func assertRefused(commonName: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let cert = directory.appendingPathComponent("\(commonName).pem").path
        let key = directory.appendingPathComponent("\(commonName).key").path
        XCTAssertEqual(
            run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=\(commonName)",
                    "-addext", "subjectAltName=DNS:\(commonName)", "-keyout", key, "-out", cert,
                ]), 0, file: file, line: line)
        let port = Int.random(in: 20_000...45_000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments = ["s_server", "-quiet", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-www"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let listening = LoopWait.until(timeout: 10) {
            self.run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"]) == 0
        }
        XCTAssertTrue(listening, "openssl s_server did not start", file: file, line: line)

        let outcome: String = try MainActor.assumeIsolated {
            var config = RelavoiConfig(baseURL: URL(string: "https://localhost:\(port)/v1")!)
            config.requestTimeout = 5
            try config.validate()  // TLS to any host is allowed: the check is the certificate's
            let relavoi = Relavoi(apiKey: "rk_test", apiSecret: "rs_test", tenantId: "t", config: config)
            let result = try awaitOnLoop(timeout: 15) { () -> String in
                do {
                    _ = try await relavoi.events.stream.accessToken()
                    return "accepted"
                } catch {
                    return "\(error)"
                }
            }
            return result
        }
        print("TLS outcome for \(commonName): \(outcome)")
        XCTAssertNotEqual(outcome, "accepted", file: file, line: line)
        XCTAssertTrue(
            outcome.lowercased().contains("certificate") || outcome.lowercased().contains("tls"),
            "not refused for its certificate: \(outcome)", file: file, line: line)
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
