import CGLib
import Synchronization

/// Every line the test process logs through GLib's structured log, kept so
/// a test can read what the code said (and check what it never says), then
/// written on as GLib would have. Installed once per process, at first use.
public enum LogCapture {
    public enum Level: Sendable, Equatable { case debug, info, warning }

    private static let lines = Mutex<[(Level, String)]>([])
    private static let installed: Void = {
        let writer: GLogWriterFunc = { level, fields, count, userData in
            if let fields, let message = LogCapture.message(fields, count) {
                let kept: Level =
                    level.rawValue & G_LOG_LEVEL_DEBUG.rawValue != 0
                    ? .debug
                    : level.rawValue & (G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue) != 0
                        ? .warning : .info
                LogCapture.lines.withLock { $0.append((kept, message)) }
            }
            return g_log_writer_default(level, fields, count, userData)
        }
        g_log_set_writer_func(writer, nil, nil)
    }()

    /// Starts capturing (idempotent); lines logged before the first call are not kept.
    public static func start() { installed }

    /// How many lines were kept so far: a mark to read from.
    public static var mark: Int { lines.withLock { $0.count } }

    /// The lines kept from `mark` on, oldest first.
    public static func lines(from mark: Int) -> [(Level, String)] {
        lines.withLock { Array($0.dropFirst(mark)) }
    }

    private static func message(_ fields: UnsafePointer<GLogField>, _ count: gsize) -> String? {
        for index in 0..<Int(count) where String(cString: fields[index].key) == "MESSAGE" {
            let field = fields[index]
            guard let value = field.value else { return nil }
            if field.length < 0 { return String(cString: value.assumingMemoryBound(to: CChar.self)) }
            let bytes = UnsafeRawBufferPointer(start: value, count: Int(field.length))
            return String(decoding: bytes, as: UTF8.self)
        }
        return nil
    }
}
