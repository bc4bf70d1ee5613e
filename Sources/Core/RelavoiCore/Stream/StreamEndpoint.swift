import FoundationEssentials

/// URL derivation and the transport policy of the stream and REST calls.
public enum StreamEndpoint {
    /// The WebSocket URL derived from a REST base URL as the contract says:
    /// `https`→`wss`, `http`→`ws`, path replaced by `/ws` at the host root,
    /// query, fragment and user info dropped. Other schemes are kept (and
    /// then refused by `checkTransport`).
    public static func webSocketURL(fromBase base: URL) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            return base
        }
        switch components.scheme?.lowercased() {
        case "https": components.scheme = "wss"
        case "http": components.scheme = "ws"
        case let scheme?: components.scheme = scheme
        case nil: break
        }
        components.user = nil
        components.password = nil
        components.percentEncodedPath = "/ws"
        components.query = nil
        components.fragment = nil
        return components.url ?? base
    }

    /// The URL with `token=<JWT>` added to its query (kept if it had one).
    public static func withToken(_ url: URL, token: String) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let item = "token=" + percentEncodeQueryValue(token)
        if let query = components?.percentEncodedQuery, !query.isEmpty {
            components?.percentEncodedQuery = query + "&" + item
        } else {
            components?.percentEncodedQuery = item
        }
        components?.fragment = nil
        return components?.string ?? url.absoluteString
    }

    /// `base` + `path` + `query`, for REST calls. `path` is relative to the
    /// base path (a leading `/` is optional); each segment is percent-encoded
    /// unless it already is. Query keys are sorted; values are encoded with
    /// RFC 3986 unreserved characters only, so `+` travels as `%2B`.
    public static func restURL(base: URL, path: String, query: [String: String] = [:]) -> String {
        var root = base.absoluteString
        if let cut = root.firstIndex(where: { $0 == "?" || $0 == "#" }) { root = String(root[..<cut]) }
        while root.hasSuffix("/") { root.removeLast() }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            let text = String(segment)
            if let decoded = PercentEncoding.decode(text), decoded != text { return text }  // already encoded
            return percentEncodePathSegment(text)
        }
        var url = root + "/" + segments.joined(separator: "/")
        if !query.isEmpty {
            url +=
                "?"
                + query.sorted { $0.key < $1.key }
                .map { percentEncodeQueryValue($0.key) + "=" + percentEncodeQueryValue($0.value) }
                .joined(separator: "&")
        }
        return url
    }

    /// The URL for logs: scheme, host, port and path; never the query.
    public static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<url>"
        }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "<url>"
    }

    /// Plain `ws`/`http` only to a loopback host; everything else must be
    /// `wss`/`https` (whose certificates the transport checks).
    public static func checkTransport(_ url: URL) throws(InsecureURLError) {
        let shown = redacted(url)
        guard let scheme = url.scheme?.lowercased() else {
            throw InsecureURLError(url: shown, reason: "no scheme")
        }
        guard let host = url.host, !host.isEmpty else {
            throw InsecureURLError(url: shown, reason: "no host")
        }
        switch scheme {
        case "wss", "https":
            return
        case "ws", "http":
            if isLoopbackHost(host) { return }
            throw InsecureURLError(
                url: shown,
                reason:
                    "plain \(scheme):// is only allowed to a loopback host (127.0.0.0/8, ::1, localhost); use \(scheme)s://"
            )
        default:
            throw InsecureURLError(url: shown, reason: "unsupported scheme \(scheme)")
        }
    }

    /// Whether the URL's host is loopback (then no proxy is consulted).
    public static func isLoopback(_ url: URL) -> Bool {
        url.host.map(isLoopbackHost) ?? false
    }

    /// `localhost` (any case, optional trailing dot), dotted-quad
    /// 127.0.0.0/8, `::1` in any spelling and `::ffff:127.x.y.z`.
    /// Shorthand and octal/hex IPv4 forms are not loopback here.
    public static func isLoopbackHost(_ rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" { return true }
        if let octets = ipv4Octets(host) { return octets[0] == 127 }
        if let groups = ipv6Groups(host) {
            if groups == [0, 0, 0, 0, 0, 0, 0, 1] { return true }
            // IPv4-mapped ::ffff:127.x.y.z
            if groups[0..<5].allSatisfy({ $0 == 0 }), groups[5] == 0xFFFF, groups[6] >> 8 == 127 {
                return true
            }
        }
        return false
    }

    /// Strict dotted-quad: four decimal parts 0-255, no leading zeros.
    static func ipv4Octets(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part == "0" || !part.hasPrefix("0"), let value = Int(part), value <= 255
            else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The eight 16-bit groups of an IPv6 address (with `::` and an
    /// embedded IPv4 tail); nil if it is not one. Zone ids are refused.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        guard text.contains(":"), !text.contains("%") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    guard let octets = ipv4Octets(String(piece)) else { return nil }
                    result.append(UInt16(octets[0] << 8 | octets[1]))
                    result.append(UInt16(octets[2] << 8 | octets[3]))
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else {
                        return nil
                    }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    private static let unreserved: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    /// RFC 3986 unreserved characters stay; everything else is %XX.
    public static func percentEncodeQueryValue(_ text: String) -> String {
        percentEncode(text, keeping: unreserved)
    }

    static func percentEncodePathSegment(_ text: String) -> String {
        percentEncode(text, keeping: unreserved.union(Array("!$&'()*+,;=:@".utf8)))
    }

    private static func percentEncode(_ text: String, keeping allowed: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else {
                out.append(0x25)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
