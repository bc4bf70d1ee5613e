import CAdw
import RelavoiGLib

/// Windows, dialogs and toasts.
extension Widget {
    /// Shows a GtkWindow and raises it.
    public func present() { gtk_window_present(typed(GtkWindow.self)) }

    /// A brief note over the window (an AdwToastOverlay).
    public func showToast(_ text: String) {
        adw_toast_overlay_add_toast(opaque, adw_toast_new(text))
    }

    /// Asks a yes/no question over the window (AdwMessageDialog); `answer` hears true
    /// for `confirm`, false for cancel or closing.
    public func confirm(
        heading: String, body: String, cancel: String, confirm: String, destructive: Bool,
        _ answer: @escaping @MainActor (Bool) -> Void
    ) {
        let dialog = adw_message_dialog_new(typed(GtkWindow.self), heading, body)!
        let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        adw_message_dialog_add_response(message, "cancel", cancel)
        adw_message_dialog_add_response(message, "confirm", confirm)
        if destructive { adw_message_dialog_set_response_appearance(message, "confirm", ADW_RESPONSE_DESTRUCTIVE) }
        adw_message_dialog_set_default_response(message, "cancel")
        adw_message_dialog_set_close_response(message, "cancel")
        SignalClosure.connectWithArgument(UnsafeMutableRawPointer(dialog), "response") { response in
            let id = response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            answer(id == "confirm")
        }
        gtk_window_present(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkWindow.self))
    }
}
