import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib

/// The running demo sandbox: a child relavoi-sandbox with throwaway
/// credentials (the secret travels in its environment, never in argv).
@MainActor
final class DemoSandbox {
    let baseURL: String
    let apiKey: String
    let apiSecret: String
    let tenantId: String
    private let child: ChildProcess
    private let scenarioPath: String

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where relavoi-sandbox is: `$RELAVOI_SANDBOX_BIN`, beside this program
    /// (the build tree, or `bin/`), or in `../libexec/relavoi-agent/` (installed).
    static func sandboxProgram() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["RELAVOI_SANDBOX_BIN"], !path.isEmpty { return path }
        for candidate in ["relavoi-sandbox", "../libexec/relavoi-agent/relavoi-sandbox"].map(RunningExecutable.sibling)
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return nil
    }

    init() throws(StartError) {
        guard let program = Self.sandboxProgram() else {
            throw StartError(
                description: "relavoi-sandbox not found beside relavoi-agent (set RELAVOI_SANDBOX_BIN, or make install)"
            )
        }
        var random = SystemRandomNumberGenerator()
        func hex(_ count: Int) -> String {
            (0..<count).map { _ in String(random.next() % 16, radix: 16) }.joined()
        }
        apiKey = "rk_test_" + hex(48)
        apiSecret = "rs_" + hex(64)
        tenantId = UUID().uuidString.lowercased()
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        scenarioPath = "\(directory)/relavoi-demo-\(ProcessInfo.processInfo.processIdentifier).scenario"
        guard
            FileManager.default.createFile(
                atPath: scenarioPath, contents: Data(DemoScenario.script().utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw StartError(description: "cannot write \(scenarioPath)") }
        do {
            child = try ChildProcess(
                argv: [program, "--scenario", scenarioPath, "--api-key", apiKey, "--tenant-id", tenantId],
                environment: ["RELAVOI_SANDBOX_SECRET": apiSecret])
        } catch {
            try? FileManager.default.removeItem(atPath: scenarioPath)
            throw StartError(description: "cannot start the demo sandbox: \(error)")
        }
        guard let url = child.readLine(startingWith: "READY ", timeout: 15) else {
            child.terminate()
            try? FileManager.default.removeItem(atPath: scenarioPath)
            throw StartError(description: "the demo sandbox (\(program)) did not start")
        }
        baseURL = url
    }

    /// Calls `body` when the sandbox has played its script and quit.
    func onQuit(_ body: @escaping @MainActor () -> Void) {
        child.onExit { [scenarioPath] in
            try? FileManager.default.removeItem(atPath: scenarioPath)
            body()
        }
    }

    func stop() {
        child.terminate()
        try? FileManager.default.removeItem(atPath: scenarioPath)
    }
}
