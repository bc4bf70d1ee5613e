import CGLib
import FoundationEssentials
import Glibc
import RelavoiGLib

/// "Copy number" without GTK: the clipboard belongs to whoever owns the
/// selection, which needs a display connection the agent does not have. So
/// the number goes to `wl-copy` (Wayland) or `xclip` (X11) when one is
/// installed for the session's display; with neither the menu leaves the row
/// out. The number goes in on stdin (it is not secret, but argv is for flags).
public struct ClipboardTool: Sendable {
    public let argv: [String]

    /// The tool for this session, if there is one.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> ClipboardTool? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func which(_ name: String) -> String? {
            path.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if environment["WAYLAND_DISPLAY"]?.isEmpty == false, let tool = which("wl-copy") {
            return ClipboardTool(argv: [tool])
        }
        if environment["DISPLAY"]?.isEmpty == false, let tool = which("xclip") {
            return ClipboardTool(argv: [tool, "-selection", "clipboard"])
        }
        return nil
    }

    /// Starts the tool with `text` on its stdin; GLib reaps it.
    public func copy(_ text: String) {
        var error: UnsafeMutablePointer<GError>?
        let args = argv.map { strdup($0) } + [nil]
        defer { for arg in args { free(arg) } }
        let launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDIN_PIPE)
        defer { g_object_unref(UnsafeMutableRawPointer(launcher)) }
        for name in ChildEnvironment.withheld { g_subprocess_launcher_unsetenv(launcher, name) }
        let launched = args.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            g_subprocess_launcher_spawnv(launcher, buffer.baseAddress, &error)
        }
        guard let process = launched else {
            Log.warning("tray item: cannot start \(argv[0]): \(GErrorText.take(error))")
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(process)) }
        let stdin = g_subprocess_get_stdin_pipe(process)
        let bytes = Array(text.utf8)
        let wrote = bytes.withUnsafeBytes {
            g_output_stream_write_all(stdin, $0.baseAddress, gsize($0.count), nil, nil, &error)
        }
        if wrote == 0 { Log.warning("tray item: cannot hand the number to \(argv[0]): \(GErrorText.take(error))") }
        g_output_stream_close(stdin, nil, nil)
        // Reaped by GLib's child watch once it exits; nothing waits for it.
        g_subprocess_wait_async(process, nil, nil, nil)
    }
}
