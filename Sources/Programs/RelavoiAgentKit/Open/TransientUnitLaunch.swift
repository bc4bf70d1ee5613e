import FoundationEssentials
import Glibc
import RelavoiDBus

/// Runs a program as a transient service of the user's service manager
/// (`org.freedesktop.systemd1.Manager.StartTransientUnit` on the session bus,
/// what `systemd-run --user` does): it runs outside the agent's unit, without
/// its seccomp filter or NoNewPrivileges.
@MainActor
enum TransientUnitLaunch {
    static let busName = "org.freedesktop.systemd1"
    static let objectPath = "/org/freedesktop/systemd1"
    static let interface = "org.freedesktop.systemd1.Manager"
    private static var count = 0

    /// A unit name no other launch of this process uses.
    static func unitName() -> String {
        count += 1
        return "app-relavoi-open-\(getpid())-\(count).service"
    }

    /// Starts `argv` (argv[0] an absolute path) with `environment` added to the
    /// manager's; `completion` gets nil once the manager took it, else why not.
    static func start(
        argv: [String], environment: [String: String], description: String, bus: BusConnection,
        completion: @escaping @MainActor (String?) -> Void
    ) {
        let exec = DBusValue.tuple([
            .string(argv[0]), .array(elementSignature: "s", argv.map(DBusValue.string)), .bool(false),
        ])
        let properties: [DBusValue] = [
            property("Description", .string(description)),
            property("ExecStart", .array(elementSignature: "(sasb)", [exec])),
            property(
                "Environment",
                .array(
                    elementSignature: "s",
                    environment.sorted { $0.key < $1.key }.map { .string("\($0.key)=\($0.value)") })),
            // Gone from the manager once it ends, also when it failed.
            property("CollectMode", .string("inactive-or-failed")),
        ]
        bus.callAsync(
            destination: busName, path: objectPath, interface: interface, method: "StartTransientUnit",
            arguments: [
                .string(unitName()), .string("fail"), .array(elementSignature: "(sv)", properties),
                .array(elementSignature: "(sa(sv))", []),
            ], timeoutMilliseconds: 10000
        ) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(error.description)
            }
        }
    }

    private static func property(_ name: String, _ value: DBusValue) -> DBusValue {
        .tuple([.string(name), .variant(value)])
    }
}
