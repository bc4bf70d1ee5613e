import FoundationEssentials
import RelavoiCore
import RelavoiDBus
import RelavoiGLib

/// GNOME Shell's own `org.gnome.Shell.Extensions` interface (the one `gnome-extensions`
/// uses), for the top-bar extension: where it stands, and turning it on. Every call is
/// asynchronous and bounded, so a shell that hangs never holds up the loop.
@MainActor
package enum ShellExtensions {
    package static let busName = "org.gnome.Shell"
    package static let path = "/org/gnome/Shell"
    package static let interface = "org.gnome.Shell.Extensions"
    package static let timeoutMilliseconds: Int32 = 5000

    /// Where the extension stands: the shell's `UserExtensionsEnabled`, then its
    /// `GetExtensionInfo`; an empty answer with the folder on disk means installed
    /// since the shell started.
    package static func status(
        on bus: BusConnection, uuid: String = TopBarOffer.extensionUUID,
        completion: @escaping @MainActor (TopBarOffer.Status) -> Void
    ) {
        bus.callAsync(
            destination: busName, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(interface), .string("UserExtensionsEnabled")], autoStart: false,
            timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            switch result {
            case .failure(let error):
                Log.debug("top bar: GNOME Shell does not answer (\(error))")
                completion(.noShell)
            case .success(let reply):
                if case .variant(.bool(false)) = reply.children?.first {
                    completion(.extensionsOff)
                    return
                }
                info(on: bus, uuid: uuid, completion: completion)
            }
        }
    }

    private static func info(
        on bus: BusConnection, uuid: String, completion: @escaping @MainActor (TopBarOffer.Status) -> Void
    ) {
        bus.callAsync(
            destination: busName, path: path, interface: interface, method: "GetExtensionInfo",
            arguments: [.string(uuid)], autoStart: false, timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            switch result {
            case .failure(let error):
                Log.debug("top bar: GetExtensionInfo failed (\(error))")
                completion(.noShell)
            case .success(let reply):
                let entries = Dictionary(
                    (reply.children?.first?.children ?? []).compactMap { entry -> (String, DBusValue)? in
                        guard case .dictEntry(.string(let key), .variant(let value)) = entry else { return nil }
                        return (key, value)
                    }, uniquingKeysWith: { first, _ in first })
                guard let state = entries["state"] else {
                    completion(GnomeShellExtensionSetup.isInstalled(uuid: uuid) ? .installedSinceLogin : .notInstalled)
                    return
                }
                let number: Int
                switch state {
                case .double(let value) where value.isFinite: number = Int(value)
                case .int32(let value): number = Int(value)
                case .uint32(let value): number = Int(value)
                default: number = -1
                }
                completion(TopBarOffer.Status(shellState: number, error: entries["error"]?.stringValue ?? ""))
            }
        }
    }

    /// Turns the extension on: `EnableExtension`, or, for one the running shell does not
    /// know yet, `enabled-extensions` for the next login.
    package static func enable(
        on bus: BusConnection, status: TopBarOffer.Status, uuid: String = TopBarOffer.extensionUUID,
        completion: @escaping @MainActor (TopBarOffer.Outcome) -> Void
    ) {
        bus.callAsync(
            destination: busName, path: path, interface: interface, method: "EnableExtension",
            arguments: [.string(uuid)], autoStart: false, timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            var answer: Bool?
            var refusal: String?
            switch result {
            case .success(let reply): answer = reply.children?.first?.boolValue
            case .failure(let error):
                Log.warning("top bar: EnableExtension(\(uuid)) failed: \(error)")
                refusal = error.message
            }
            let saved =
                answer != true && status == .installedSinceLogin
                && GnomeShellExtensionSetup.enableAtNextLogin(uuid: uuid)
            completion(
                TopBarOffer.outcome(
                    status: status, shellEnabled: answer, savedForNextLogin: saved, refusal: refusal))
        }
    }
}
