import CGLib

/// A command line parsed by GLib's GOptionContext, in Swift types: `--name
/// VALUE`, `--name=VALUE`, `-n VALUE`, grouped short flags and `--` as GLib
/// reads them. Help never ends the process here (GLib's own `--help` calls
/// `exit`): it comes back as `.help` with GLib's text, so callers can print
/// their own usage instead and tests can look at it.
public struct CommandLineParser: Sendable {
    public struct Option: Equatable, Sendable {
        public let long: String
        public let short: Character?
        /// The value's name in `--help` (`FILE`); nil for a flag.
        public let valueName: String?
        public let isFilename: Bool
        public let description: String

        public init(
            _ long: String, short: Character? = nil, value valueName: String? = nil, filename: Bool = false,
            description: String = ""
        ) {
            self.long = long
            self.short = short
            self.valueName = valueName
            self.isFilename = filename
            self.description = description
        }

        var takesValue: Bool { valueName != nil }
    }

    /// One option as given, by its long name; `value` is nil for a flag.
    public struct Given: Equatable, Sendable {
        public let name: String
        public let value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public struct Parsed: Equatable, Sendable {
        /// Every option given, in order.
        public var given: [Given] = []
        /// Operands (and, with `keepsUnknownOptions`, unknown options), in order.
        public var remaining: [String] = []

        public func has(_ long: String) -> Bool { given.contains { $0.name == long } }
        /// The last value given for `long`.
        public func value(_ long: String) -> String? { given.last { $0.name == long }?.value }
    }

    public enum Outcome: Equatable, Sendable {
        case parsed(Parsed)
        /// One of `helpOptions` was given: GLib's help text (`--help-all`: all groups).
        case help(String)
    }

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Kind: Equatable, Sendable {
            case unknownOption
            case missingValue
            case other
        }

        public let kind: Kind
        /// The option as written without its value (`--config`, `-c`), when known.
        public let option: String?
        /// GLib's own words (in the user's language).
        public let message: String
        public var description: String { message }
    }

    public var options: [Option]
    /// The text between the usage line and the options in `--help`.
    public var summary: String?
    /// Unknown options stay in `remaining` (for callers with messages of
    /// their own) instead of failing with GLib's "Unknown option".
    public var keepsUnknownOptions: Bool
    /// The words that ask for help.
    public var helpOptions: Set<String>

    public static let glibHelpOptions: Set<String> = ["-h", "--help", "-?", "--help-all"]

    public init(
        options: [Option], summary: String? = nil, keepsUnknownOptions: Bool = false,
        helpOptions: Set<String> = CommandLineParser.glibHelpOptions
    ) {
        self.options = options
        self.summary = summary
        self.keepsUnknownOptions = keepsUnknownOptions
        self.helpOptions = helpOptions
    }

    /// Parses all of argv (`arguments[0]` is the program).
    public func parse(_ arguments: [String]) throws(Failure) -> Outcome {
        let words = arguments.dropFirst().prefix { $0 != "--" }
        if let asked = words.first(where: { helpOptions.contains($0) }) {
            return .help(help(arguments, all: asked == "--help-all"))
        }
        return .parsed(
            try withContext { context, recorder throws(Failure) in
                try run(context, recorder: recorder, arguments)
            })
    }

    /// GLib's `--help` text (the usage line names `g_get_prgname()`).
    public func helpText(all: Bool = false) -> String {
        withContext { context, _ in
            g_option_context_set_help_enabled(context, 1)
            let text = g_option_context_get_help(context, all ? 0 : 1, nil)
            defer { g_free(text) }
            return text.map { String(cString: $0) } ?? ""
        }
    }

    // MARK: - GOptionContext

    /// What the entries' callback hears, through the group's `user_data`.
    private final class Recorder {
        let names: [String: String]
        var given: [Given] = []
        init(names: [String: String]) { self.names = names }
    }

    private func help(_ arguments: [String], all: Bool) -> String {
        // GLib names the program after argv[0] when nothing else did.
        if g_get_prgname() == nil, let program = arguments.first {
            let base = g_path_get_basename(program)
            g_set_prgname(base)
            g_free(base)
        }
        return helpText(all: all)
    }

    private func run(_ context: OpaquePointer, recorder: Recorder, _ arguments: [String]) throws(Failure) -> Parsed {
        // A GLib-owned vector: parse_strv removes (and frees) what it used.
        var copies: [UnsafeMutablePointer<gchar>?] = arguments.map { g_strdup($0) } + [nil]
        var strv = copies.withUnsafeMutableBufferPointer { g_strdupv($0.baseAddress) }
        copies.forEach { g_free($0) }
        defer { g_strfreev(strv) }
        var error: UnsafeMutablePointer<GError>?
        let parsed = g_option_context_parse_strv(context, &strv, &error) != 0
        guard parsed else { throw failure(error, arguments) }
        var remaining: [String] = []
        if let strv, strv[0] != nil {
            var index = 1
            while let item = strv[index] {
                remaining.append(String(cString: item))
                index += 1
            }
        }
        return Parsed(given: recorder.given, remaining: remaining)
    }

    private func failure(_ error: UnsafeMutablePointer<GError>?, _ arguments: [String]) -> Failure {
        let unknown = error.map { $0.pointee.code == gint(G_OPTION_ERROR_UNKNOWN_OPTION.rawValue) } ?? false
        let message = GErrorText.take(error)
        if unknown {
            return Failure(kind: .unknownOption, option: firstUnknown(arguments), message: message)
        }
        // GLib fails this way (G_OPTION_ERROR_FAILED) only for an option
        // that needs a value and is the last word.
        if let missing = missingValue(arguments) {
            return Failure(kind: .missingValue, option: missing, message: message)
        }
        return Failure(kind: .other, option: nil, message: message)
    }

    private func firstUnknown(_ arguments: [String]) -> String? {
        let longs = Set(options.map { "--" + $0.long })
        let shorts = Set(options.compactMap(\.short))
        for word in arguments.dropFirst().prefix(while: { $0 != "--" }) where word.hasPrefix("-") && word != "-" {
            if word.hasPrefix("--") {
                let name = String(word.prefix { $0 != "=" })
                if !longs.contains(name) { return name }
            } else if let letter = word.dropFirst().first(where: { !shorts.contains($0) }) {
                return "-" + String(letter)
            }
        }
        return nil
    }

    private func missingValue(_ arguments: [String]) -> String? {
        guard arguments.count > 1, let last = arguments.last else { return nil }
        if last.hasPrefix("--") {
            let name = String(last.dropFirst(2))
            return options.contains { $0.long == name && $0.takesValue } ? last : nil
        }
        guard last.hasPrefix("-"), let letter = last.dropFirst().last,
            options.contains(where: { $0.short == letter && $0.takesValue })
        else { return nil }
        return "-" + String(letter)
    }

    /// A context with one main group whose entries all report to a `Recorder`.
    private func withContext<T, E: Error>(_ body: (OpaquePointer, Recorder) throws(E) -> T) throws(E) -> T {
        var names: [String: String] = [:]
        for option in options {
            names["--" + option.long] = option.long
            if let short = option.short { names["-" + String(short)] = option.long }
        }
        let recorder = Recorder(names: names)
        var strings: [UnsafeMutablePointer<gchar>?] = []
        func keep(_ text: String?) -> UnsafeMutablePointer<gchar>? {
            guard let text else { return nil }
            let copy = g_strdup(text)
            strings.append(copy)
            return copy
        }
        let callback: GOptionArgFunc = { name, value, data, _ in
            let recorder = Unmanaged<Recorder>.fromOpaque(data!).takeUnretainedValue()
            let written = name.map { String(cString: $0) } ?? ""
            let long = recorder.names[written] ?? written
            recorder.given.append(Given(name: long, value: value.map { String(cString: $0) }))
            return 1
        }
        var entries: [GOptionEntry] = options.map { option in
            var flags = option.takesValue ? 0 : G_OPTION_FLAG_NO_ARG.rawValue
            if option.isFilename { flags |= G_OPTION_FLAG_FILENAME.rawValue }
            return GOptionEntry(
                long_name: keep(option.long), short_name: option.short.flatMap(\.asciiValue).map { CChar($0) } ?? 0,
                flags: gint(flags), arg: G_OPTION_ARG_CALLBACK,
                arg_data: unsafeBitCast(callback, to: UnsafeMutableRawPointer.self),
                description: keep(option.description), arg_description: keep(option.valueName))
        }
        entries.append(GOptionEntry())
        defer { strings.forEach { g_free($0) } }
        let context = g_option_context_new(nil)!
        defer { g_option_context_free(context) }
        if let summary { g_option_context_set_summary(context, summary) }
        g_option_context_set_help_enabled(context, 0)
        g_option_context_set_ignore_unknown_options(context, keepsUnknownOptions ? 1 : 0)
        let data = Unmanaged.passUnretained(recorder).toOpaque()
        let group = g_option_group_new(nil, nil, nil, data, nil)!
        g_option_group_add_entries(group, &entries)
        g_option_context_set_main_group(context, group)
        return try withExtendedLifetime(recorder) { () throws(E) -> T in try body(context, recorder) }
    }
}
