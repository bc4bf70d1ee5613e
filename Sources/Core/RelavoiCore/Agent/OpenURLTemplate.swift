import FoundationEssentials

/// The page a click on a call's banner opens, e.g.
/// `https://ops.example.com/calls/{sessionId}?order={metadata.orderId}`.
///
/// Placeholders are `{sessionId}` and `{metadata.KEY}` (a key of the
/// session's metadata: letters, digits, `_ - .`); each value is
/// percent-encoded (everything but RFC 3986's unreserved characters), so a
/// value cannot add a path segment, a query parameter or a fragment. The
/// scheme and host are literal: placeholders may only follow them (in the
/// path, query or fragment), so no session data can choose where the click
/// goes. Only `https`, or `http` to a loopback host. A literal `{` or `}`
/// must be written `%7B` / `%7D`.
public struct OpenURLTemplate: Equatable, Sendable, CustomStringConvertible {
    public enum Part: Equatable, Sendable {
        case literal(String)
        case sessionId
        case metadata(key: String)
    }

    /// A template that cannot be used, and why.
    public struct Invalid: Error, Equatable, Sendable {
        public let message: String
    }

    static let maxLength = 2048

    public let parts: [Part]
    /// Some `{metadata.KEY}`: a session's page needs its metadata.
    public let namesMetadata: Bool
    /// The template as written.
    public let description: String

    public init(parsing text: String) throws(Invalid) {
        func bad(_ message: String) -> Invalid { Invalid(message: message) }
        guard text.utf8.count <= Self.maxLength else { throw bad("longer than \(Self.maxLength) bytes") }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E })
        else {
            throw bad("spaces, control or non-ASCII characters must be percent-encoded")
        }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<open]
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw bad("unbalanced { or } (write a literal one as %7B or %7D)")
            }
            let name = rest[rest.index(after: open)..<close]
            guard !name.contains("{") else { throw bad("unbalanced { or } (write a literal one as %7B or %7D)") }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(try Self.placeholder(name, bad: bad))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        try Self.checkDestination(parts, bad: bad)
        self.parts = parts
        namesMetadata = parts.contains { if case .metadata = $0 { true } else { false } }
        self.description = text
    }

    /// The URL for one session, or nil when the template names a metadata key
    /// the session lacks (or whose value is an object, an array or null).
    public func expand(sessionId: String, metadata: [String: JSONValue]) -> String? {
        var url = ""
        for part in parts {
            switch part {
            case .literal(let text): url += text
            case .sessionId: url += Self.percentEncoded(sessionId)
            case .metadata(let key):
                guard let value = metadata[key].flatMap(Self.text) else { return nil }
                url += Self.percentEncoded(value)
            }
        }
        return url
    }

    private static func placeholder(_ name: Substring, bad: (String) -> Invalid) throws(Invalid) -> Part {
        if name == "sessionId" { return .sessionId }
        let prefix = "metadata."
        if name.hasPrefix(prefix) {
            let key = name.dropFirst(prefix.count)
            let allowed = key.unicodeScalars.allSatisfy {
                ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0)
                    || "_-.".unicodeScalars.contains($0)
            }
            if !key.isEmpty, key.count <= 64, allowed { return .metadata(key: String(key)) }
            throw bad("{\(name)}: a metadata key is letters, digits, _ - . (at most 64)")
        }
        throw bad("unknown placeholder {\(name)}: use {sessionId} or {metadata.KEY}")
    }

    /// The scheme and host come before any placeholder and are allowed.
    private static func checkDestination(_ parts: [Part], bad: (String) -> Invalid) throws(Invalid) {
        guard case .literal(let head)? = parts.first else {
            throw bad("must start with https:// and a host, not a placeholder")
        }
        guard let schemeEnd = head.firstRange(of: "://") else { throw bad("expected a URL starting with https://") }
        let scheme = head[..<schemeEnd.lowerBound].lowercased()
        let afterScheme = head[schemeEnd.upperBound...]
        // The authority must end inside the literal head, at / ? or #.
        guard let authorityEnd = afterScheme.firstIndex(where: { "/?#".contains($0) }),
            authorityEnd > afterScheme.startIndex
        else {
            throw bad("the host must be written out, followed by /, ? or #, before any placeholder")
        }
        guard !afterScheme[..<authorityEnd].contains("@") else { throw bad("user names in the URL are refused") }
        let sample = parts.map { part -> String in
            if case .literal(let text) = part { return text }
            return "x"
        }.joined()
        guard let host = URL(string: sample)?.host, !host.isEmpty else { throw bad("not a URL with a host") }
        switch scheme {
        case "https": return
        case "http" where StreamEndpoint.isLoopbackHost(host): return
        case "http": throw bad("plain http:// only to a loopback host (127.0.0.1, ::1, localhost); use https://")
        default: throw bad("only https:// URLs (or http:// to a loopback host), not \(scheme)://")
        }
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return number.isFinite ? String(number) : nil
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    /// Everything but RFC 3986's unreserved characters, byte by byte (UTF-8).
    static func percentEncoded(_ text: String) -> String { StreamEndpoint.percentEncodeQueryValue(text) }
}
