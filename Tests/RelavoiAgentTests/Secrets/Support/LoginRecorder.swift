import Foundation
import RelavoiClient
import RelavoiStream

@testable import RelavoiAgentKit

/// Plays the terminal for `login`: hands out lines, records prompts and output.
final class LoginRecorder {
    var lines: [String]
    var prompts: [(String, Bool)] = []
    var out: [String] = []
    var err: [String] = []
    var stored: [(APISecret, String, String)] = []
    /// What the token endpoint answers; `checks` records each check's key and base URL.
    var checkResult: CredentialCheckResult
    var checks: [(String, String)] = []
    var environment: [String: String] = [:]

    init(lines: [String], checkResult: CredentialCheckResult = .accepted(accessToken: TestJWT.make())) {
        self.lines = lines
        self.checkResult = checkResult
    }

    /// Reads from `lines`, writes the key to `configPath`, stores secrets in `stored`.
    func io(configPath: String) -> LoginCommand.IO {
        LoginCommand.IO(
            readLine: { prompt, hidden in
                self.prompts.append((prompt, hidden))
                return self.lines.isEmpty ? nil : self.lines.removeFirst()
            },
            out: { self.out.append($0) },
            err: { self.err.append($0) },
            storeSecret: { secret, apiKey, label in self.stored.append((secret, apiKey, label)) },
            checkCredentials: { apiKey, _, config in
                self.checks.append((apiKey, config.baseURL.absoluteString))
                return self.checkResult
            },
            environment: environment,
            defaultConfigPath: { configPath })
    }
}

/// JWT-shaped tokens with chosen claims (the signature is never checked).
enum TestJWT {
    static let tenant = "3f2b0000-1111-4222-8333-444455556666"

    static func make(claims: String = #"{"sub":"t","tenantId":"\#(tenant)","exp":1}"#) -> String {
        ["{\"alg\":\"HS256\"}", claims].map(base64URL).joined(separator: ".") + ".c2lnbmF0dXJl"
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// A directory under /tmp removed at deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "relavoi-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` with `mode`; returns the path.
    @discardableResult
    func file(_ name: String, _ text: String, mode: mode_t = 0o600) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        guard chmod(file, mode) == 0 else { throw POSIXError(.EPERM) }
        return file
    }
}
