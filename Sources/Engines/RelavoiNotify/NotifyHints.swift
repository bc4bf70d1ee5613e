import CGLib
import RelavoiCore
import RelavoiMachines

/// The hints a banner's `Notify` carries, from its content and the server's rules.
enum NotifyHints {
    /// The banner's hints as floating GVariants (whoever takes them sinks them).
    static func hints(
        for content: NotificationContent, owner: BannerOwner, icon: String, rules: NotificationServerRules
    ) -> [(key: String, value: OpaquePointer)] {
        var hints: [(key: String, value: OpaquePointer)] = [
            ("urgency", g_variant_new_byte(content.urgency.rawValue)),
            ("desktop-entry", g_variant_new_string(owner.desktopEntry)),
        ]
        if !content.category.isEmpty { hints.append(("category", g_variant_new_string(content.category))) }
        if content.resident { hints.append(("resident", g_variant_new_boolean(1))) }
        if content.transient { hints.append(("transient", g_variant_new_boolean(1))) }
        if let sound = content.soundName { hints.append(("sound-name", g_variant_new_string(sound))) }
        if content.suppressSound { hints.append(("suppress-sound", g_variant_new_boolean(1))) }
        if rules.badgeAsImageHint, !icon.isEmpty { hints.append(("image-path", g_variant_new_string(icon))) }
        return hints
    }
}
