import Foundation
import RelavoiSandboxKit
import XCTest

final class CommandLineTests: XCTestCase {
    func testOptionsParse() throws {
        let parsed = try SandboxCommandLine.parse(
            [
                "--port", "8123", "--scenario", "demo.scenario", "--api-key=rk_test_abc",
                "--tenant-id", "11111111-2222-4333-8444-555555555555", "--token-lifetime", "60",
                "--ping-interval", "0", "--token-rate-limit", "0",
            ],
            environment: [SandboxCommandLine.secretVariable: "rs_from_env"])
        XCTAssertEqual(parsed.port, 8123)
        XCTAssertEqual(parsed.scenarioPath, "demo.scenario")
        XCTAssertEqual(parsed.options.apiKey, "rk_test_abc")
        XCTAssertEqual(parsed.options.apiSecret, "rs_from_env")
        XCTAssertEqual(parsed.options.tenantId, "11111111-2222-4333-8444-555555555555")
        XCTAssertEqual(parsed.options.tokenLifetime, 60)
        XCTAssertEqual(parsed.options.pingInterval, 0)
        XCTAssertEqual(parsed.options.tokenRateLimitPerMinute, 0)
    }

    func testDefaultsAreTheFixedTestCredentials() throws {
        let parsed = try SandboxCommandLine.parse([], environment: [:])
        XCTAssertEqual(parsed.port, 0)
        XCTAssertEqual(parsed.options, SandboxServer.Options())
        XCTAssertNotNil(parsed.options.apiKey.range(of: "^rk_test_[0-9a-f]{48}$", options: .regularExpression))
        XCTAssertNotNil(parsed.options.apiSecret.range(of: "^rs_[0-9a-f]{64}$", options: .regularExpression))
        XCTAssertNotNil(UUID(uuidString: parsed.options.tenantId))
    }

    func testSecretsAreRefusedOnTheCommandLineAndBadValuesFail() {
        for arguments in [
            ["--api-secret", "rs_x"], ["--port"], ["--port", "70000"], ["--tenant-id", "nope"],
            ["--token-lifetime", "-1"], ["--frobnicate"],
        ] {
            XCTAssertThrowsError(try SandboxCommandLine.parse(arguments, environment: [:]), "\(arguments)") { error in
                if arguments[0] == "--api-secret" {
                    XCTAssertTrue("\(error)".contains(SandboxCommandLine.secretVariable))
                }
            }
        }
    }
}

/// The real executable, as a black box: READY line, a token, SIGTERM.
final class ExecutableTests: XCTestCase {
    func testExecutablePrintsReadyServesAndQuitsOnSIGTERM() throws {
        // Next to the test bundle (Linux: the bundle URL is the build directory itself).
        let bundle = Bundle(for: Self.self).bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map {
            $0.appendingPathComponent("relavoi-sandbox")
        }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("relavoi-sandbox not built next to \(bundle.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0"]
        process.environment = [SandboxCommandLine.secretVariable: "rs_env_secret"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let ready = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(ready.range(of: #"^READY http://127\.0\.0\.1:\d+/v1$"#, options: .regularExpression), ready)
        let baseURL = String(ready.dropFirst("READY ".count))

        let client = SoupTestClient()
        let key = SandboxServer.Options.defaultAPIKey
        let good = client.request(
            "POST", baseURL + "/auth/token", body: "{\"apiKey\":\"\(key)\",\"apiSecret\":\"rs_env_secret\"}")
        XCTAssertEqual(good.status, 200, "the secret comes from the environment")
        let defaultSecret = client.request(
            "POST", baseURL + "/auth/token",
            body: "{\"apiKey\":\"\(key)\",\"apiSecret\":\"\(SandboxServer.Options.defaultAPISecret)\"}")
        XCTAssertEqual(defaultSecret.status, 401)

        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "SIGTERM quits the loop cleanly")
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
