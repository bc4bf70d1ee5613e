import Foundation
import RelavoiCore
import RelavoiMachines

/// What must hold for any bytes a socket can deliver as a text frame. Apart
/// from not crashing, hanging or leaking (the sanitizers' part), the decoder
/// keeps the promises of its documentation; each broken one is a finding.
enum FrameFuzzing {
    static let decoder = FrameDecoder()

    static func problems(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var problems: [String] = []
        let first = Result { () throws(FrameDecodeError) in try decoder.decode(utf8: bytes) }
        let again = Result { () throws(FrameDecodeError) in try decoder.decode(utf8: bytes) }
        if first != again { problems.append("decoding the same bytes twice gave different results") }

        // The String and [UInt8] entry points agree with the buffer one.
        let array = [UInt8](bytes)
        if Result(catching: { () throws(FrameDecodeError) in try decoder.decode(utf8: array) }) != first {
            problems.append("decode(utf8: [UInt8]) disagrees with the buffer entry point")
        }
        if let text = String(validating: array, as: UTF8.self),
            Result(catching: { () throws(FrameDecodeError) in try decoder.decode(text) }) != first
        {
            problems.append("decode(String) disagrees with the buffer entry point")
        }

        switch first {
        case .success(let frame): problems += check(frame, array)
        case .failure(let error): problems += check(error, array)
        }
        return problems
    }

    /// A decoded frame carries what its case promises.
    private static func check(_ frame: StreamFrame, _ bytes: [UInt8]) -> [String] {
        guard case .event(let event, let id) = frame else { return [] }
        var problems: [String] = []
        if id == "" { problems.append("an empty id must decode as nil") }
        switch event {
        case .sessionCreated(let sessionId, let proxyNumber, _):
            if sessionId.isEmpty || proxyNumber.isEmpty { problems.append("session.created with an empty field") }
        case .sessionActivated(let sessionId, _), .sessionExpired(let sessionId, _), .callAnswered(let sessionId, _),
            .smsReceived(let sessionId, _):
            if sessionId.isEmpty { problems.append("an event with an empty sessionId") }
        case .callIncoming(let sessionId, let caller, _):
            if sessionId.isEmpty || caller.isEmpty { problems.append("call.incoming with an empty field") }
        case .callEnded(let sessionId, let duration, _):
            if sessionId.isEmpty { problems.append("call.ended with an empty sessionId") }
            if duration < 0 { problems.append("call.ended with a negative duration") }
        case .unknown(let type, let payload):
            if FrameDecoder.knownTypes.contains(type) { problems.append("known type \(type) decoded as unknown") }
            if type.isEmpty { problems.append("unknown event with an empty type") }
            // The payload of an unknown event is the whole frame, as parsed.
            if (try? JSONValue.parse(utf8: bytes, maxDepth: decoder.maxDepth)) != payload {
                problems.append("unknown event's payload is not the whole frame")
            }
        }
        return problems
    }

    /// The reason is one log-ready clause that never quotes field values: it
    /// is built from key names and fixed text only, so it is printable ASCII.
    private static func check(_ error: FrameDecodeError, _ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        if error.reason.isEmpty { problems.append("an error without a reason") }
        if !error.reason.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            problems.append(
                "the error reason holds more than printable ASCII (a field value?): \(error.reason.debugDescription)")
        }
        if error.reason.utf8.count > 200 {
            problems.append("the error reason is \(error.reason.utf8.count) bytes long")
        }
        // `type` and `id` name the frame: they are the frame's own top-level strings.
        if error.type != nil || error.id != nil {
            guard case .object(let top)? = try? JSONValue.parse(utf8: bytes, maxDepth: decoder.maxDepth) else {
                return problems + ["an error names a type or id although the frame is not an object"]
            }
            if let type = error.type, top["type"] != .string(type) {
                problems.append("error.type is not the frame's type")
            }
            if let id = error.id, top["id"] != .string(id) || id.isEmpty {
                problems.append("error.id is not the frame's id")
            }
        }
        return problems
    }
}
