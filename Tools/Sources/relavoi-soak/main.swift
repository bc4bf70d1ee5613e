import Foundation
import RelavoiGLib

// make soak (scripts/soak.sh): the release agent for SOAK_MINUTES against an
// in-process relavoi-sandbox and python3-dbusmock; see docs/hardening.md.
// Synchronous entry: the GLib main loop runs on the main thread.
let status: Int32 = MainActor.assumeIsolated {
    do {
        let options = try SoakOptions(
            environment: ProcessInfo.processInfo.environment, executable: RunningExecutable.path)
        return try SoakRun(options: options).run() ? 0 : 1
    } catch {
        FileHandle.standardError.write(Data("relavoi-soak: \(error)\n".utf8))
        return 2
    }
}
exit(status)
