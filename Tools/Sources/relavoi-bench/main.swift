import Foundation

// Synchronous entry: the GLib main loop (the in-process sandbox) owns the main thread.
exit(MainActor.assumeIsolated { BenchMain.run(CommandLine.arguments) })
