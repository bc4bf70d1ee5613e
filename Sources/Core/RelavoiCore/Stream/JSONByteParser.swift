/// A single-pass recursive-descent parser over a contiguous UTF-8 buffer.
/// Strings without escapes are copied straight out of the buffer; only
/// strings holding non-ASCII bytes pay for UTF-8 validation.
struct JSONByteParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index != bytes.count { throw syntax("unexpected data after the document") }
        return value
    }

    private func syntax(_ reason: String) -> JSONParseError {
        JSONParseError(kind: .syntax, reason: reason, offset: index)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw syntax("unexpected end of input") }
        switch bytes[index] {
        case Byte.quote: return .string(try parseString())
        case Byte.openBrace: return try parseObject(depth: depth + 1)
        case Byte.openBracket: return try parseArray(depth: depth + 1)
        case 0x74:
            try expectLiteral("true")
            return .bool(true)
        case 0x66:
            try expectLiteral("false")
            return .bool(false)
        case 0x6E:
            try expectLiteral("null")
            return .null
        case Byte.minus, Byte.zero...Byte.nine: return try parseNumber()
        default: throw syntax("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw syntax("unexpected end of input") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw syntax("invalid literal")
        }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw JSONParseError(kind: .tooDeep, reason: "", offset: index) }
        index += 1  // {
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == Byte.closeBrace {
            index += 1
            return .object(fields)
        }
        fields.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == Byte.quote else { throw syntax("expected a key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == Byte.colon else { throw syntax("expected ':'") }
            index += 1
            skipWhitespace()
            fields[key] = try parseValue(depth: depth)
            if try atEndOfMembers(closing: Byte.closeBrace, "expected ',' or '}'") { return .object(fields) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw JSONParseError(kind: .tooDeep, reason: "", offset: index) }
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == Byte.closeBracket {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            if try atEndOfMembers(closing: Byte.closeBracket, "expected ',' or ']'") { return .array(items) }
        }
    }

    /// After an object's or array's member: consumes the `,` (false) or the
    /// closing bracket (true); anything else is a syntax error.
    @inline(__always)
    private mutating func atEndOfMembers(closing: UInt8, _ expected: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw syntax("unexpected end of input") }
        switch bytes[index] {
        case Byte.comma:
            index += 1
            return false
        case closing:
            index += 1
            return true
        default: throw syntax(expected)
        }
    }

    /// Called with `index` on the opening quote; leaves it after the closing one.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        var sawNonASCII = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Byte.quote {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if !sawNonASCII { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw JSONParseError(kind: .invalidUTF8, reason: "", offset: start)
                }
                return string
            }
            if byte == Byte.backslash { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw syntax("control character in string") }
            if byte >= 0x80 { sawNonASCII = true }
            index += 1
        }
        throw syntax("unterminated string")
    }

    /// The slow path for strings with escapes: rebuild the bytes.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var buffer: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        buffer.reserveCapacity(buffer.count + 32)
        var sawNonASCII = buffer.contains { $0 >= 0x80 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case Byte.quote:
                index += 1
                if !sawNonASCII { return String(decoding: buffer, as: UTF8.self) }
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw JSONParseError(kind: .invalidUTF8, reason: "", offset: start)
                }
                return string
            case Byte.backslash:
                index += 1
                guard index < bytes.count else { throw syntax("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case Byte.quote, Byte.backslash, Byte.slash: buffer.append(escape)
                case 0x62: buffer.append(0x08)  // b
                case 0x66: buffer.append(0x0C)  // f
                case 0x6E: buffer.append(0x0A)  // n
                case 0x72: buffer.append(0x0D)  // r
                case 0x74: buffer.append(0x09)  // t
                case 0x75:  // u
                    let scalar = try parseUnicodeEscape()
                    if scalar.value >= 0x80 { sawNonASCII = true }
                    buffer.append(contentsOf: UTF8.encode(scalar)!)
                default: throw syntax("invalid escape")
                }
            default:
                if byte < 0x20 { throw syntax("control character in string") }
                if byte >= 0x80 { sawNonASCII = true }
                buffer.append(byte)
                index += 1
            }
        }
        throw syntax("unterminated string")
    }

    /// After `\u`: four hex digits, and a second escape for a surrogate pair.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        switch first {
        case 0xD800...0xDBFF:
            // A high surrogate needs a following \uDC00-\uDFFF.
            if bytes.count - index >= 6, bytes[index] == Byte.backslash, bytes[index + 1] == 0x75 {
                let save = index
                index += 2
                let second = try parseHex4()
                if (0xDC00...0xDFFF).contains(second) {
                    let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    return Unicode.Scalar(value) ?? "\u{FFFD}"
                }
                index = save
            }
            return "\u{FFFD}"
        case 0xDC00...0xDFFF:
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw syntax("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw syntax("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == Byte.minus {
            negative = true
            index += 1
        }
        guard index < bytes.count, (Byte.zero...Byte.nine).contains(bytes[index]) else {
            throw syntax("invalid number")
        }
        // Accumulate as a negative number so Int.min fits.
        var accumulator = 0
        var overflow = false
        if bytes[index] == Byte.zero {
            index += 1
        } else {
            while index < bytes.count, (Byte.zero...Byte.nine).contains(bytes[index]) {
                if !overflow {
                    let (times10, o1) = accumulator.multipliedReportingOverflow(by: 10)
                    let (next, o2) = times10.subtractingReportingOverflow(Int(bytes[index] - Byte.zero))
                    if o1 || o2 { overflow = true } else { accumulator = next }
                }
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == Byte.dot {
            isInteger = false
            index += 1
            guard index < bytes.count, (Byte.zero...Byte.nine).contains(bytes[index]) else {
                throw syntax("invalid number")
            }
            while index < bytes.count, (Byte.zero...Byte.nine).contains(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == Byte.lowerE || bytes[index] == Byte.upperE {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == Byte.plus || bytes[index] == Byte.minus { index += 1 }
            guard index < bytes.count, (Byte.zero...Byte.nine).contains(bytes[index]) else {
                throw syntax("invalid number")
            }
            while index < bytes.count, (Byte.zero...Byte.nine).contains(bytes[index]) { index += 1 }
        }
        if isInteger && !overflow {
            if negative { return .int(accumulator) }
            if accumulator != Int.min { return .int(-accumulator) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw syntax("number out of range") }
        return .double(value)
    }
}

// ASCII bytes the parser looks for.
private enum Byte {
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45
}
