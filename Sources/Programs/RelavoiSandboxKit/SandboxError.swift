import CGLib
import CSoup
import Foundation
import RelavoiCore
import RelavoiGLib

public enum SandboxError: Error, CustomStringConvertible {
    case alreadyStarted
    case listenFailed(String)

    public var description: String {
        switch self {
        case .alreadyStarted: return "the sandbox is already listening"
        case .listenFailed(let message): return "cannot listen: \(message)"
        }
    }
}
