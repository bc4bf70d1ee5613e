import CAdw
import RelavoiGLib

/// The window's process: one AdwApplication with a D-Bus application id, so a second
/// launch activates the first (single instance) and exits.
@MainActor
public final class AdwaitaApplication {
    private let application: UnsafeMutablePointer<AdwApplication>
    private var gApplication: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)
    }

    public init(id: String) {
        application = adw_application_new(id, G_APPLICATION_DEFAULT_FLAGS)
    }

    isolated deinit { g_object_unref(application) }

    /// "activate": a launch with nothing else to do (the first, or a second one forwarded here).
    public func onActivate(_ run: @escaping @MainActor () -> Void) {
        SignalClosure.connectPlain(UnsafeMutableRawPointer(application), "activate", run)
    }

    /// An action `app.NAME` taking a string (`gapplication action ID NAME "'value'"`
    /// or `org.freedesktop.Application.ActivateAction` reach it from outside).
    public func addAction(_ name: String, _ run: @escaping @MainActor (String) -> Void) {
        let action = g_simple_action_new(name, g_variant_type_new("s"))!
        SignalClosure.connectWithArgument(UnsafeMutableRawPointer(action), "activate") { parameter in
            guard let parameter, let text = g_variant_get_string(OpaquePointer(parameter), nil) else { return }
            run(String(cString: text))
        }
        g_action_map_add_action(OpaquePointer(application), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Registers on the session bus; whether another instance already runs (then calls
    /// go to it).
    public func registerIsRemote() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(gApplication, nil, &error) != 0 else {
            Log.warning("cannot register the application: \(GErrorText.take(error))")
            return false
        }
        return g_application_get_is_remote(gApplication) != 0
    }

    /// Activates `app.NAME(value)` here or in the instance that runs.
    public func activateAction(_ name: String, _ value: String) {
        g_action_group_activate_action(OpaquePointer(application), name, g_variant_new_string(value))
    }

    /// Makes `window` (a GtkWindow from a builder) this application's.
    public func adopt(_ window: Widget) {
        gtk_window_set_application(
            window.typed(GtkWindow.self),
            UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self))
    }

    /// Runs until the last window closes; the exit status. `arguments` are the ones
    /// GApplication is to see (`--gapplication-service`…), without the program's own
    /// options, which it would refuse as unknown.
    public func run(arguments: [String]) -> Int32 {
        MainLoop.installDispatchBridge()
        var argv = ([CommandLine.arguments.first ?? "relavoi-window"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        argv.append(nil)
        return g_application_run(gApplication, Int32(argv.count - 1), &argv)
    }
}
