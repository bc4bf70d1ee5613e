import RelavoiDBus

/// The desktop portal's `org.freedesktop.portal.OpenURI.OpenURI`: the portal
/// (`xdg-desktop-portal`, a user service of its own) starts the default
/// handler, so the browser is not the agent's child and inherits none of its
/// unit's confinement.
@MainActor
enum DesktopPortalOpenURI {
    static let busName = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.OpenURI"
    /// Long enough for the portal's cold start, which starts its backends.
    static let timeoutMilliseconds: Int32 = 25000

    /// What became of the request.
    enum Outcome {
        /// The portal took the URI (it may still ask which app).
        case requested
        /// No portal with OpenURI on this bus: open it some other way.
        case noPortal(String)
        /// The portal is there and refused or did not answer: say so, open nothing else.
        case failed(String)
    }

    /// Errors that mean "no portal here", not "the portal said no".
    static let absentErrors: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.Spawn.ChildExited",
        "org.freedesktop.DBus.Error.Spawn.ExecFailed", "org.freedesktop.DBus.Error.Spawn.ServiceNotFound",
        "org.freedesktop.systemd1.NoSuchUnit", "org.freedesktop.systemd1.UnitMasked",
    ]

    /// Asks the portal to open `uri`; `activationToken` lets the opened window be raised.
    static func open(
        _ uri: String, activationToken: String?, bus: BusConnection,
        completion: @escaping @MainActor (Outcome) -> Void
    ) {
        var options: [(String, DBusValue)] = []
        if let activationToken, !activationToken.isEmpty {
            options.append(("activation_token", .string(activationToken)))
        }
        bus.callAsync(
            destination: busName, path: objectPath, interface: interface, method: "OpenURI",
            arguments: [.string(""), .string(uri), .dictionary(options)], timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            switch result {
            case .success: completion(.requested)
            case .failure(let error):
                let text = error.description
                completion(error.name.map(absentErrors.contains) == true ? .noPortal(text) : .failed(text))
            }
        }
    }
}
