/// Whether to ask the person to put the Relavoi widget in their Plasma panel, and the
/// scripts plasmashell runs for it (`org.kde.PlasmaShell.evaluateScript`). Pure: the driver
/// (`PlasmaPanelQuestion`) runs the probe and the add.
public enum PlasmaPanelOffer {
    public static let widgetId = "com.relavoi.call"
    /// The widget follows the agent with `org.kde.plasma.workspace.dbus`'s `Properties`,
    /// which Plasma has from 6.4: an older Plasma keeps the tray item alone.
    public static let minimumVersion = (6, 4)

    /// What the probe found in the running plasmashell.
    public struct Shell: Equatable, Sendable {
        public var version: String
        public var widgetInstalled: Bool
        public var widgetInPanel: Bool
        public init(version: String, widgetInstalled: Bool, widgetInPanel: Bool) {
            self.version = version
            self.widgetInstalled = widgetInstalled
            self.widgetInPanel = widgetInPanel
        }
    }

    public enum Decision: Equatable, Sendable {
        case ask
        /// Nothing to ask, and why (a log line).
        case skip(String)
    }

    /// Prints one line: plasmashell's version, whether the widget is installed, whether a
    /// panel holds it ("6.7.4 true false").
    public static let probeScript = """
        var inPanel = panels().some(function (p) { return p.widgets("\(widgetId)").length > 0; });
        print(applicationVersion + " " + (knownWidgetTypes.indexOf("\(widgetId)") >= 0) + " " + inPanel);
        """

    /// Adds the widget to the panel that holds the system tray, just before the tray (it
    /// reads as part of the tray, with room for its text); prints "added", "present" or
    /// "no-tray". The panel places a new widget at the point given to `addWidget` (before
    /// the widget under it when in its first half), in its layout's coordinates, which
    /// start at its first widget: a quarter into the tray. A written `AppletOrder` is not
    /// read by a running panel, which writes its own over it (seen on 6.7.4).
    public static let addScript = """
        var outcome = "no-tray";
        panels().forEach(function (panel) {
            if (outcome !== "no-tray") return;
            var tray = panel.widgets("org.kde.plasma.systemtray")[0];
            if (!tray) return;
            if (panel.widgets("\(widgetId)").length > 0) { outcome = "present"; return; }
            var all = panel.widgets().map(function (w) { return w.geometry; });
            var left = Math.min.apply(null, all.map(function (g) { return g.x; }));
            var top = Math.min.apply(null, all.map(function (g) { return g.y; }));
            var at = tray.geometry;
            panel.addWidget("\(widgetId)", at.x - left + at.width / 4, at.y - top + at.height / 4, -1, -1);
            outcome = "added";
        });
        print(outcome);
        """

    /// Takes the widget out of every panel (the window's switch turned off); prints how many.
    public static let removeScript = """
        var removed = 0;
        panels().forEach(function (panel) {
            panel.widgets("\(widgetId)").forEach(function (widget) { widget.remove(); removed++; });
        });
        print(removed);
        """

    /// The probe's line, or nil for anything else.
    public static func parseProbe(_ output: String) -> Shell? {
        let words = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard words.count == 3, let installed = Bool(words[1]), let inPanel = Bool(words[2]) else { return nil }
        return Shell(version: words[0], widgetInstalled: installed, widgetInPanel: inPanel)
    }

    /// "6.3.6" → (6, 3); nil when it does not start with two numbers.
    public static func majorMinor(_ version: String) -> (Int, Int)? {
        let parts = version.split(separator: ".")
        guard parts.count >= 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }

    /// Asks only on Plasma, before the person has answered, when plasmashell answers, is
    /// recent enough, has the widget installed and no panel holds it yet.
    public static func decide(answer: PlasmaPanelAnswer, isKDE: Bool, shell: Shell?) -> Decision {
        guard isKDE else { return .skip("not a KDE Plasma desktop") }
        guard answer == .ask else {
            return .skip("already answered: \(answer.rawValue)")
        }
        guard let shell else { return .skip("plasmashell does not answer its scripting interface") }
        guard let version = majorMinor(shell.version), version >= minimumVersion else {
            return .skip("Plasma \(shell.version) is older than 6.4: the tray item shows the calls")
        }
        guard shell.widgetInstalled else { return .skip("the widget \(widgetId) is not installed") }
        guard !shell.widgetInPanel else { return .skip("the widget is already in a panel") }
        return .ask
    }
}
