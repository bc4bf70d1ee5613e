import Foundation

enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func write<T: Encodable>(_ value: T, to path: String) throws {
        try encode(value).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func read<T: Decodable>(_ type: T.Type, from path: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
