import Foundation
import RelavoiGLib

/// `relavoi-bench [OPTION…]` (the system benchmark) and `relavoi-bench micro`.
struct BenchOptions: Codable, Equatable {
    var runs = 3
    var calls = 1000
    var firehoseFrames = 100_000
    var sessions = 10_000
    var idleSeconds = 20.0
    var windowSeconds = 10.0
    var notifySendUpdates = 10
    var servers: [NotificationServer.Kind] = [.dbusmock, .dunst]
    var outDirectory = ".build/bench"
    var agentBinary = ""
    /// The release relavoi-window (default: beside the agent).
    var windowBinary = ""
    /// `window`: relavoi-window's start-up row alone.
    var windowOnly = false
    var swiftVersion = "unknown"
    /// `micro --out FILE`: the in-process part only.
    var microOut: String?
    /// `ticker --banners N`: the reference client only.
    var tickerBanners: Int?
    /// scripts/bench-desktop.sh (the desktop's cost per live call second); empty: not measured.
    var desktopScript = ""
    /// 150 s: one /proc tick (10 ms) is then under 5% of a figure of 1.34 ms/s or more; the
    /// clock's seconds cost GNOME Shell 43 about 1.8 to 2.3 ms/s above idle here, the tray
    /// item waybar 1.5 to 1.8 (120 s left one tick at 5.3% of that).
    var desktopSeconds = 150.0
    var desktopRepeats = 2
    /// Which desktops: `gnome`, `sway` (waybar) or both.
    var desktops = "gnome sway"
    /// `desktop`: the desktop's cost alone.
    var desktopOnly = false
    /// `render FILE`: the table again from a latest.json (after the table's code changed).
    var renderFrom: String?

    var logDirectory: String { outDirectory + "/logs" }

    static let usage = """
        usage: relavoi-bench [--runs N] [--calls N] [--firehose N] [--sessions N] [--idle S]
                             [--window S] [--updates N] [--servers dbusmock,dunst] [--out DIR]
                             [--agent PATH] [--window-binary PATH] [--swift-version TEXT] [--quick]
                             [--desktop-script PATH] [--desktop-seconds S] [--desktop-repeats N]
                             [--desktops gnome,sway]
               relavoi-bench window [--runs N] [--window-binary PATH] [--out DIR]
               relavoi-bench desktop --desktop-script PATH [--desktop-seconds S] [--desktop-repeats N]
               relavoi-bench render FILE.json
               relavoi-bench micro --out FILE [--firehose N]
               relavoi-bench ticker --banners N

        Run it on a private session bus with no notification server (scripts/bench.sh
        does: make bench). It starts relavoi-sandbox in process, python3-dbusmock,
        dunst under Xvfb and the release relavoi-agent next to this binary, prints
        one table and writes DIR/latest.json (default .build/bench).
          --quick   1 run, 200 calls, 20,000 frames, 5 s windows, 1 round of 5 s desktop phases
                    (a smoke test)
        --desktop-script runs scripts/bench-desktop.sh after the runs: GNOME Shell's and waybar's
        CPU above idle per live call second, phases of S seconds (default 150), N rounds (2).
        `desktop` runs that part alone.
        `window` starts dunst's Xvfb and relavoi-window N times (default 3) and prints the
        median of its start to its first frame, the Start-up row of the whole benchmark.
        """

    enum Parse {
        case run(BenchOptions)
        case exit(Int32, String)
    }

    static func parse(_ arguments: [String]) -> Parse {
        var options = BenchOptions()
        options.agentBinary = RunningExecutable.sibling("relavoi-agent")
        var rest = Array(arguments.dropFirst())
        if rest.first == "micro" {
            rest.removeFirst()
            options.microOut = ""
        } else if rest.first == "ticker" {
            rest.removeFirst()
            options.tickerBanners = 1
        } else if rest.first == "window" {
            rest.removeFirst()
            options.windowOnly = true
        } else if rest.first == "desktop" {
            rest.removeFirst()
            options.desktopOnly = true
        } else if rest.first == "render" {
            guard rest.count == 2 else { return .exit(2, "usage: relavoi-bench render FILE.json") }
            options.renderFrom = rest[1]
            return .run(options)
        }
        let parsed: CommandLineParser.Parsed
        do {
            switch try parser.parse(["relavoi-bench"] + rest) {
            case .help: return .exit(0, usage)
            case .parsed(let result): parsed = result
            }
        } catch {
            guard error.kind == .missingValue, let flag = error.option else { return .exit(2, error.message) }
            return .exit(2, "relavoi-bench: \(flag) needs a value\n\n" + usage)
        }
        if let flag = parsed.remaining.first { return .exit(2, "relavoi-bench: unknown option \(flag)\n\n" + usage) }
        for given in parsed.given {
            let flag = "--" + given.name
            guard let value = given.value else {
                options.runs = 1  // --quick, the only flag
                options.calls = 200
                options.firehoseFrames = 20_000
                options.sessions = 10_000
                options.idleSeconds = 5
                options.windowSeconds = 5
                options.notifySendUpdates = 3
                options.desktopSeconds = 5
                options.desktopRepeats = 1
                continue
            }
            let number = Double(value)
            switch flag {
            case "--runs": options.runs = Int(number ?? 0)
            case "--calls": options.calls = Int(number ?? 0)
            case "--firehose": options.firehoseFrames = Int(number ?? 0)
            case "--sessions": options.sessions = Int(number ?? 0)
            case "--idle": options.idleSeconds = number ?? 0
            case "--window": options.windowSeconds = number ?? 0
            case "--updates": options.notifySendUpdates = Int(number ?? 0)
            case "--out":
                if options.microOut != nil { options.microOut = value } else { options.outDirectory = value }
            case "--banners": options.tickerBanners = Int(number ?? 0)
            case "--agent": options.agentBinary = value
            case "--window-binary": options.windowBinary = value
            case "--swift-version": options.swiftVersion = value
            case "--desktop-script": options.desktopScript = value
            case "--desktop-seconds": options.desktopSeconds = number ?? 0
            case "--desktop-repeats": options.desktopRepeats = Int(number ?? 0)
            case "--desktops":
                let names = value.split(separator: ",").map(String.init)
                guard !names.isEmpty, names.allSatisfy({ ["gnome", "sway"].contains($0) }) else {
                    return .exit(2, "relavoi-bench: --desktops is a list of gnome,sway")
                }
                options.desktops = names.joined(separator: " ")
            default:  // --servers
                let kinds = value.split(separator: ",").map { NotificationServer.Kind(rawValue: String($0)) }
                guard !kinds.isEmpty, kinds.allSatisfy({ $0 != nil }), kinds.first == .dbusmock else {
                    return .exit(2, "relavoi-bench: --servers is a list of dbusmock,dunst starting with dbusmock")
                }
                options.servers = kinds.compactMap { $0 }
            }
            let numeric = [
                "--banners", "--runs", "--calls", "--firehose", "--sessions", "--idle", "--window", "--updates",
                "--desktop-seconds", "--desktop-repeats",
            ]
            if numeric.contains(flag), (number ?? 0) <= 0 {
                return .exit(2, "relavoi-bench: \(flag) must be a positive number")
            }
        }
        if options.microOut == "" { return .exit(2, "relavoi-bench micro: --out FILE is required") }
        if options.desktopOnly, options.desktopScript.isEmpty {
            return .exit(2, "relavoi-bench desktop: --desktop-script PATH is required")
        }
        if options.windowBinary.isEmpty {
            options.windowBinary = (options.agentBinary as NSString).deletingLastPathComponent + "/relavoi-window"
        }
        return .run(options)
    }

    private static let parser = CommandLineParser(
        options: [
            "runs", "calls", "firehose", "sessions", "idle", "window", "updates", "out", "banners", "agent",
            "window-binary", "swift-version", "servers", "desktop-script", "desktop-seconds", "desktop-repeats",
            "desktops",
        ].map { CommandLineParser.Option($0, value: "VALUE") } + [CommandLineParser.Option("quick")],
        keepsUnknownOptions: true, helpOptions: ["--help", "-h"])

}
