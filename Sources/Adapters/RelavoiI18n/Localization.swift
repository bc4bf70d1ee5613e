import CGLib
import Glibc
import RelavoiCore
import RelavoiGLib

/// gettext for the agent (GLib's i18n functions, text domain
/// `relavoi-agent`). `setUp` runs first thing; `L` and `LN` mark the texts
/// `xgettext --keyword=L --keyword=LN:1,2` extracts into po/relavoi-agent.pot.
public enum Localization {
    public static let domain = "relavoi-agent"
    /// `make` compiles the catalogs into `.build/locale` and leaves this there.
    static let buildTreeMarker = "relavoi-agent.build-tree"

    /// The user's locale, and where the catalogs are: beside a binary in the
    /// build tree (`.build/<triple>/<config>/` → `.build/locale`, also from a
    /// sanitizer's `.build/asan/<triple>/<config>/`), else
    /// `<prefix>/share/locale` for `<prefix>/bin/relavoi-agent`.
    public static func setUp() {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, catalogDirectory(executable: RunningExecutable.path))
        bind_textdomain_codeset(domain, "UTF-8")
    }

    static func catalogDirectory(executable: String?) -> String {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return "/usr/share/locale" }
        let folder = String(executable[..<slash])
        for buildTree in [folder + "/../../locale", folder + "/../locale", folder + "/../../../locale"]
        where access(buildTree + "/" + buildTreeMarker, F_OK) == 0 {
            return buildTree
        }
        return folder + "/../share/locale"
    }
}

/// `text` in the user's language (the English text when no translation).
public func L(_ text: String) -> String {
    guard !text.isEmpty else { return text }  // "" would look up the catalog's header
    // Untranslated, gettext hands back its argument: a pointer valid only inside withCString.
    return text.withCString { msgid in
        guard let found = g_dgettext(Localization.domain, msgid), found != msgid else { return text }
        return String(cString: found)
    }
}

/// `text` in the user's language with its `%s`/`%d` filled, in order (a
/// translation may say `%2$s`): `L("cannot read %s: %s", path, why)`.
public func L(_ text: String, _ first: String, _ more: String...) -> String {
    TextTemplate.fill(L(text), [first] + more)
}

/// The form of `singular`/`plural` for `count` in the user's language.
public func LN(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            guard let found = g_dngettext(Localization.domain, one, many, gulong(max(0, count))) else {
                return count == 1 ? singular : plural
            }
            if found == one { return singular }
            if found == many { return plural }
            return String(cString: found)
        }
    }
}
