/// Whether to ask the person to turn the top-bar extension on, and what to tell them after
/// a yes. Pure: `ShellExtensions` finds out where the extension stands.
public enum TopBarOffer {
    public static let extensionUUID = "relavoi@relavoi.com"

    /// Where the extension stands in this session.
    public enum Status: Equatable, Sendable {
        /// No GNOME Shell answers on the session bus (another desktop, or the shell is gone).
        case noShell
        /// The person turned every extension off (`disable-user-extensions`).
        case extensionsOff
        /// Neither the shell nor the disk has it.
        case notInstalled
        /// On disk, unknown to the running shell: installed since the desktop started.
        case installedSinceLogin
        case enabled
        case disabled
        /// The shell refused it (out of date, or an error while loading).
        case refused(String)

        /// GNOME Shell's `ExtensionState` (the same numbers from 43 to 51): 1 enabled, 2
        /// disabled, 3 error, 4 out of date, 6 initialized (never enabled yet), 7-8 turning
        /// off or on, 99 uninstalled. `error` is the shell's own words, if any.
        public init(shellState: Int, error: String) {
            switch shellState {
            case 1, 8: self = .enabled
            case 2, 6, 7: self = .disabled
            case 3: self = .refused(error.isEmpty ? "it failed to load" : error)
            case 4: self = .refused("GNOME Shell says it is out of date")
            case 99: self = .notInstalled
            default: self = .refused("unknown extension state \(shellState)")
            }
        }
    }

    public enum Decision: Equatable, Sendable {
        case ask
        /// Nothing to ask, and why (a debug log line).
        case skip(String)
    }

    /// Asks only on GNOME, only before the person has answered, and only when turning the
    /// extension on can work: installed, not on, not refused by the shell.
    public static func decide(answer: TopBarAnswer, isGNOME: Bool, status: Status) -> Decision {
        guard isGNOME else { return .skip("not a GNOME desktop") }
        guard answer == .ask else { return .skip("already answered: \(answer.rawValue)") }
        switch status {
        case .noShell: return .skip("GNOME Shell is not on the session bus")
        case .extensionsOff: return .skip("extensions are turned off in this session")
        case .notInstalled: return .skip("the extension is not installed")
        case .enabled: return .skip("the extension is already on")
        case .refused(let why): return .skip("GNOME Shell refuses the extension: \(why)")
        case .disabled, .installedSinceLogin: return .ask
        }
    }

    /// What a yes led to.
    public enum Outcome: Equatable, Sendable {
        /// The shell turned it on now.
        case onNow
        /// Turned on for the next login: the running shell does not know the extension yet
        /// (installed since the desktop started; on Wayland the shell cannot load it before).
        case onAtNextLogin
        /// It could not be turned on, and why.
        case failed(String)
    }

    /// The outcome of a yes, from what the shell answered to `EnableExtension` (nil: no
    /// answer; `refusal`: its error's words) and where the extension stood: a shell that
    /// does not know it yet answers false.
    public static func outcome(
        status: Status, shellEnabled: Bool?, savedForNextLogin: Bool, refusal: String? = nil
    ) -> Outcome {
        if shellEnabled == true { return .onNow }
        if status == .installedSinceLogin, savedForNextLogin { return .onAtNextLogin }
        if let refusal { return .failed("GNOME Shell answered: \(refusal)") }
        if shellEnabled == false { return .failed("GNOME Shell did not turn it on") }
        return .failed("GNOME Shell did not answer")
    }
}
