import Foundation

@testable import RelavoiAgentKit

/// Plays the terminal for `login`: hands out lines, records prompts and output.
final class LoginRecorder {
    var lines: [String]
    var prompts: [(String, Bool)] = []
    var out: [String] = []
    var err: [String] = []
    var stored: [(APISecret, String, String)] = []

    init(lines: [String]) { self.lines = lines }

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
            defaultConfigPath: { configPath })
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
