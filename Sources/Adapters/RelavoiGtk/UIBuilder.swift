import CAdw
import RelavoiGLib

/// A GtkBuilder `.ui` file, its strings translated in `domain`.
@MainActor
public final class UIBuilder {
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    private let builder: OpaquePointer

    public init(path: String, domain: String) throws(LoadError) {
        builder = gtk_builder_new()
        gtk_builder_set_translation_domain(builder, domain)
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_file(builder, path, &error) != 0 else {
            throw LoadError(description: "\(path): \(GErrorText.take(error))")
        }
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(builder)) }

    /// The object with this id; a missing id is a mistake in the `.ui` file.
    public func widget(_ id: String) -> Widget {
        guard let object = gtk_builder_get_object(builder, id) else {
            fatalError("the .ui file has no object \(id)")
        }
        return Widget(UnsafeMutableRawPointer(object))
    }
}
