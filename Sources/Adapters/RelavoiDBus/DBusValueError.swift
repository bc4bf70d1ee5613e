/// A value that cannot become a GVariant, or a GVariant of a type `DBusValue` has no case for.
public struct DBusValueError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
