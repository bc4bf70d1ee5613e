import CGLib
import Glibc
import RelavoiCore
import RelavoiGLib

/// What a banner sends with `Notify`: its hints (one list, used by the
/// libnotify show and by the presenter's own update alike) and the argument
/// tuple of that update, which goes out without libnotify (and the bench's
/// reference clients' `Notify`, made the same way).
package enum NotifyArguments {
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

    /// `(susssasa{sv}i)` for replacing notification `id`, as libnotify 0.8
    /// would send it: the icon as app icon, the actions, the hints
    /// plus `sender-pid`. A floating GVariant.
    static func update(
        id: UInt32, content: NotificationContent, owner: BannerOwner, icon: String, rules: NotificationServerRules
    ) -> OpaquePointer {
        var entries = hints(for: content, owner: owner, icon: icon, rules: rules)
        entries.append(("sender-pid", g_variant_new_int64(processID)))
        return tuple(
            appName: owner.appName, replacesId: id, icon: icon, summary: content.summary, body: content.body,
            actions: content.actionList, hints: entries,
            timeout: content.expireTimeout)
    }

    /// `(susssasa{sv}i)` from its fields: actions as id and label in turn,
    /// hints as floating values. A floating GVariant.
    package static func tuple(
        appName: String, replacesId: UInt32, icon: String, summary: String, body: String, actions: [String],
        hints: [(key: String, value: OpaquePointer)], timeout: Int32
    ) -> OpaquePointer {
        let entries = hints.map {
            g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_variant($0.value))!
        }
        return GVariantValues.tuple([
            g_variant_new_string(appName), g_variant_new_uint32(replacesId), g_variant_new_string(icon),
            g_variant_new_string(summary), g_variant_new_string(body),
            GVariantValues.array(of: VariantType.string, actions.map { g_variant_new_string($0) }),
            GVariantValues.array(of: VariantType.hintEntry, entries), g_variant_new_int32(timeout),
        ])
    }

    /// libnotify's `sender-pid`, read once (a system call per update otherwise).
    private static let processID = gint64(getpid())
}
