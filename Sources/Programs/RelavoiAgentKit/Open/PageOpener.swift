import FoundationEssentials
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiMachines

/// Opens a call's page (`open-url`) in the person's browser, never as the
/// agent's own child while the agent is confined: whatever it starts inherits
/// its unit's seccomp filter and NoNewPrivileges, and a browser loses its JIT
/// under `MemoryDenyWriteExecute`. In order:
/// 1. the desktop portal's OpenURI (xdg-desktop-portal starts the browser);
/// 2. no portal and confined: `xdg-open` as a transient service of the user's
///    service manager (`systemd-run --user`, over D-Bus);
/// 3. otherwise GIO's default handler, started by the agent (as when it is
///    not confined: an autostart entry, `--demo`, a terminal).
@MainActor
enum PageOpener {
    /// Asks for `uri` to be opened; what became of it is logged.
    static func open(_ uri: String, activationToken: String?, bus: BusConnection?) {
        guard let bus else {
            launchHere(uri, activationToken: activationToken)
            return
        }
        DesktopPortalOpenURI.open(uri, activationToken: activationToken, bus: bus) { outcome in
            switch outcome {
            case .requested:
                Log.info("asked the desktop portal to open \(uri)")
            case .failed(let why):
                Log.warning("the desktop portal did not open \(uri): \(why)")
            case .noPortal(let why):
                Log.debug("no desktop portal to open \(uri) (\(why))")
                openWithoutPortal(uri, activationToken: activationToken, bus: bus)
            }
        }
    }

    private static func openWithoutPortal(_ uri: String, activationToken: String?, bus: BusConnection) {
        let confinement = ProcessConfinement(procStatus: ProcFile.read("/proc/self/status") ?? "")
        guard confinement.passesToChildren, let xdgOpen = programInPath("xdg-open") else {
            if confinement.passesToChildren {
                Log.warning("no desktop portal and no xdg-open: \(uri) opens under the agent's own confinement")
            }
            launchHere(uri, activationToken: activationToken)
            return
        }
        var environment: [String: String] = [:]
        if let activationToken, !activationToken.isEmpty {
            environment["XDG_ACTIVATION_TOKEN"] = activationToken
            environment["DESKTOP_STARTUP_ID"] = activationToken
        }
        TransientUnitLaunch.start(
            argv: [xdgOpen, uri], environment: environment, description: "Relavoi: open a call's page", bus: bus
        ) { failure in
            if let failure {
                Log.warning("the user's service manager did not open \(uri): \(failure)")
                launchHere(uri, activationToken: activationToken)
            } else {
                Log.info("asked the user's service manager to open \(uri) (xdg-open)")
            }
        }
    }

    private static func launchHere(_ uri: String, activationToken: String?) {
        if let failure = URILauncher.open(uri, activationToken: activationToken) {
            Log.warning("could not open \(uri): \(failure)")
        }
    }

    private static func programInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
