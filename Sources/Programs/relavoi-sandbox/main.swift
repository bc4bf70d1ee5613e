// relavoi-sandbox: a local Relavoi-compatible server (see docs/sandbox.md).
import Foundation
import RelavoiGLib
import RelavoiSandboxKit

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("relavoi-sandbox: \(message)\n".utf8))
    exit(status)
}

let commandLine: SandboxCommandLine
do {
    commandLine = try SandboxCommandLine.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    fail("\(error)", status: 2)
}
if commandLine.showHelp {
    print(SandboxCommandLine.help)
    exit(0)
}
if commandLine.verbose { Log.enableVerbose() }

var scenario: Scenario?
if let path = commandLine.scenarioPath {
    do {
        scenario = try Scenario.load(path: path)
    } catch {
        fail("\(path): \(error)", status: 2)
    }
}

MainActor.assumeIsolated {
    let server = SandboxServer(options: commandLine.options)
    do {
        try server.start(port: commandLine.port)
    } catch {
        fail("\(error)", status: 1)
    }
    server.onQuit = { MainLoop.quit() }
    UnixSignals.onTerminate { _ in MainLoop.quit() }
    // Unbuffered: whoever started us waits for this line.
    FileHandle.standardOutput.write(Data("READY \(server.baseURL)\n".utf8))
    if let scenario { server.play(scenario) }
    MainLoop.run()
    server.stop()
    // Give the close frames a moment to go out.
    MainLoop.iterate(timeout: 0.2) { false }
}
