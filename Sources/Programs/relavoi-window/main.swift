import Glibc
import RelavoiWindowKit

// The Relavoi window (GTK 4 + libadwaita). Synchronous: GApplication runs the GLib loop
// on the main thread, with the Swift main queue bridged into it.
exit(MainActor.assumeIsolated { RelavoiWindow.main(Array(CommandLine.arguments.dropFirst())) })
