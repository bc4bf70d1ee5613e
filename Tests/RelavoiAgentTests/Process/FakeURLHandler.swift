import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// A stand-in browser: the default handler of `x-scheme-handler/https` (and
/// `http`) in a private `XDG_DATA_HOME`; it writes its argument and
/// `XDG_ACTIVATION_TOKEN` to a file. Used by every test that opens a page.
final class FakeURLHandler {
    let root: URL
    var opened: URL { root.appendingPathComponent("opened") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-url-\(UUID().uuidString)")
        let applications = root.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let script = root.appendingPathComponent("open.sh")
        try """
        #!/bin/sh
        printf '%s\\n%s\\n' "$1" "$XDG_ACTIVATION_TOKEN" > '\(root.path)/opening' && mv '\(root.path)/opening' '\(opened.path)'

        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        try """
        [Desktop Entry]
        Type=Application
        Name=Relavoi test browser
        Exec=\(script.path) %u
        MimeType=x-scheme-handler/https;x-scheme-handler/http;
        NoDisplay=true

        """.write(
            to: applications.appendingPathComponent("relavoi-test-browser.desktop"), atomically: true, encoding: .utf8)
        try """
        [Default Applications]
        x-scheme-handler/https=relavoi-test-browser.desktop
        x-scheme-handler/http=relavoi-test-browser.desktop

        """.write(to: applications.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var environment: [String: String] { ["XDG_DATA_HOME": root.appendingPathComponent("data").path] }

    func reset() { try? FileManager.default.removeItem(at: opened) }

    /// The URL and token the handler was given, once it ran.
    @MainActor func waitForOpened(timeout: Double = 30) -> [String]? {
        var lines: [String]?
        _ = LoopWait.until(timeout: timeout) {
            lines = (try? String(contentsOf: self.opened, encoding: .utf8)).map {
                $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
            return lines != nil
        }
        return lines
    }
}
