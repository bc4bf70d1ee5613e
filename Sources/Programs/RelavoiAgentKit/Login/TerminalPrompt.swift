import FoundationEssentials
import Glibc
import RelavoiGLib

/// Reads a line from standard input, prompting on stderr when it is a
/// terminal. A hidden line is read with echo off (termios); the terminal's
/// settings come back afterwards, and also when SIGINT, SIGTERM, SIGHUP or
/// SIGQUIT arrive meanwhile (the signal is then re-raised with its default
/// action). When standard input is not a terminal (a script), lines are read
/// as they come, without prompts.
enum TerminalPrompt {
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    static func readLine(prompt: String, hidden: Bool) -> String? {
        guard isInteractive else { return Swift.readLine(strippingNewline: true) }
        StandardStreams.error(prompt)
        guard hidden else { return Swift.readLine(strippingNewline: true) }
        guard EchoGuard.disableEcho(fd: STDIN_FILENO) else {
            // Not a terminal we can switch off echo on: do not read a secret in the clear.
            StandardStreams.error("\n")
            return nil
        }
        defer { EchoGuard.restore() }
        return Swift.readLine(strippingNewline: true)
    }
}

/// The terminal settings to restore, kept where a signal handler can reach them.
private enum EchoGuard {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// On the heap, not a Swift global of the C struct: under AddressSanitizer
    /// copying a termios into such a global was reported as a global buffer
    /// overflow (its instrumented size is smaller than the 60 bytes copied).
    nonisolated(unsafe) static let saved: UnsafeMutablePointer<termios> = {
        let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        pointer.initialize(to: termios())
        return pointer
    }()
    nonisolated(unsafe) static var savedFD: Int32 = -1
    nonisolated(unsafe) static var previousHandlers: [Int32: sighandler_t?] = [:]

    static func disableEcho(fd: Int32) -> Bool {
        var current = termios()
        guard tcgetattr(fd, &current) == 0 else { return false }
        saved.pointee = current
        savedFD = fd
        for signal in signals {
            previousHandlers[signal] = Glibc.signal(signal) { number in
                // Async-signal-safe: tcsetattr, signal, raise.
                if EchoGuard.savedFD >= 0 { tcsetattr(EchoGuard.savedFD, TCSANOW, EchoGuard.saved) }
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
        }
        var quiet = current
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)  // the Enter still moves to the next line
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else {
            restore()
            return false
        }
        return true
    }

    static func restore() {
        guard savedFD >= 0 else { return }
        tcsetattr(savedFD, TCSANOW, saved)
        savedFD = -1
        for (signal, handler) in previousHandlers { Glibc.signal(signal, handler ?? SIG_DFL) }
        previousHandlers = [:]
    }
}
