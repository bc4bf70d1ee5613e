import FoundationEssentials
import Glibc
import RelavoiAgentKit

// Synchronous entry: the GLib main loop must own the main thread (an async
// main would move main-actor work off it).
exit(MainActor.assumeIsolated { Agent.main(CommandLine.arguments) })
