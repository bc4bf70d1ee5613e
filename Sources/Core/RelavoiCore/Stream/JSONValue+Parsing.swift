extension JSONValue {
    /// Nesting limit of `parse`: deeper documents are rejected, never recursed into.
    public static let defaultMaxDepth = 64

    /// Parses one JSON document from UTF-8 bytes (RFC 8259), validating the
    /// UTF-8 of every string. Objects keep the last of duplicate keys;
    /// integers that fit in `Int` become `.int`, other numbers `.double`.
    /// A lone UTF-16 surrogate in a `\u` escape becomes U+FFFD.
    public static func parse(
        utf8 bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> JSONValue {
        var parser = JSONByteParser(bytes.bindMemory(to: UInt8.self), maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    public static func parse(utf8 bytes: [UInt8], maxDepth: Int = defaultMaxDepth)
        throws(JSONParseError) -> JSONValue
    {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBytes { raw in
            do throws(JSONParseError) {
                return .success(try parse(utf8: raw, maxDepth: maxDepth))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
        -> JSONValue
    {
        try parse(utf8: Array(text.utf8), maxDepth: maxDepth)
    }
}
