/// `application/x-www-form-urlencoded` queries: `+` is a space, `%XX` a byte.
/// The first occurrence of a name wins.
enum QueryString {
    static func parse(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), !name.isEmpty, result[name] == nil else { continue }
            result[name] = parts.count > 1 ? decode(parts[1]) ?? "" : ""
        }
        return result
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
