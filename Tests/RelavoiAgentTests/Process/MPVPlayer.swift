import Foundation
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// A real media player on the test's bus: Debian's mpv with its MPRIS plugin (mpv-mpris),
/// playing a tone made here, in a loop, to the null audio output. The test plays the
/// person too, through MPRIS as a desktop's media keys do.
@MainActor
final class MPVPlayer {
    static let plugins = [
        "/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so", "/usr/lib/x86_64-linux-gnu/mpv/scripts/mpris.so",
    ]
    static let path = "/org/mpris/MediaPlayer2"
    static let interface = "org.mpris.MediaPlayer2.Player"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process = Process()
    /// Its MPRIS name (`org.mpris.MediaPlayer2.mpv`, or `….mpv.instance<pid>` beside another mpv).
    private(set) var busName = ""
    private let bus: BusConnection
    private let audio: URL
    /// The `PlaybackStatus` values it announced (`PropertiesChanged`), in order.
    private(set) var announced: [String] = []
    private var announcements: BusSignalSubscription?

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv"),
            let plugin = Self.plugins.first(where: { FileManager.default.fileExists(atPath: $0) })
        else { throw XCTSkip("mpv and mpv-mpris are not installed (scripts/install-deps.sh test)") }
        bus = try BusConnection.session()
        audio = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-tone-\(UUID().uuidString).wav")
        try Self.tone().write(to: audio)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mpv")
        process.arguments = [
            "--no-config", "--ao=null", "--no-video", "--idle=yes", "--loop-file=inf", "--really-quiet",
            "--input-terminal=no", "--script=\(plugin)", audio.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopWait.until(timeout: 20, { self.findName() }) else {
            stop()
            throw Failure(description: "mpv did not show on the bus over MPRIS (headless, with mpv-mpris)")
        }
        let owner = try bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "GetNameOwner", arguments: [.string(busName)], replyType: "(s)", timeoutMilliseconds: 5000
        ).children?.first?.stringValue
        announcements = BusSignalSubscription(
            connection: bus, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: Self.path, arg0: Self.interface
        ) { [weak self] signal in
            guard signal.sender == owner else { return }
            for case .dictEntry(.string("PlaybackStatus"), .variant(.string(let text))) in signal.arguments.dropFirst()
                .first?.children ?? []
            {
                self?.announced.append(text)
            }
        }
        guard LoopWait.until(timeout: 20, { self.status == "Playing" }) else {
            stop()
            throw Failure(description: "mpv did not start playing the tone (status \(status ?? "none"))")
        }
    }

    /// `PlaybackStatus`, read now; nil when it does not answer.
    var status: String? {
        let reply = try? bus.call(
            destination: busName, path: Self.path, interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(Self.interface), .string("PlaybackStatus")], replyType: "(v)",
            timeoutMilliseconds: 5000)
        guard case .variant(.string(let text))? = reply?.children?.first else { return nil }
        return text
    }

    /// The person presses `Play`, `Pause` or `Stop`, then waits until mpv tells the bus it
    /// `announces` (as a person would hear it): mpv-mpris sends what changed every 100 ms,
    /// the latest value only, so two presses within that would be one change for listeners.
    @discardableResult
    func person(_ method: String, announces status: String) -> Bool {
        let before = announced.count
        _ = try? bus.call(
            destination: busName, path: Self.path, interface: Self.interface, method: method,
            timeoutMilliseconds: 5000)
        return LoopWait.until(timeout: 10) { self.announced.dropFirst(before).contains(status) }
    }

    func stop() {
        announcements?.cancel()
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if !busName.isEmpty { _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(self.busName) } }
        try? FileManager.default.removeItem(at: audio)
    }

    /// The MPRIS name this process owns.
    private func findName() -> Bool {
        let names = try? bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "ListNames", replyType: "(as)", timeoutMilliseconds: 5000)
        for case .string(let name) in names?.children?.first?.children ?? []
        where name.hasPrefix("org.mpris.MediaPlayer2.mpv") {
            let pid = try? bus.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "GetConnectionUnixProcessID", arguments: [.string(name)], replyType: "(u)",
                timeoutMilliseconds: 5000)
            if case .uint32(let number)? = pid?.children?.first, Int32(number) == process.processIdentifier {
                busName = name
                return true
            }
        }
        return false
    }

    /// One second of a 440 Hz tone: 8 kHz, 16-bit mono PCM in a WAV file.
    static func tone() -> Data {
        let rate = 8000
        var samples = Data()
        for index in 0..<rate {
            let value = Int16(8000 * sin(2 * Double.pi * 440 * Double(index) / Double(rate)))
            withUnsafeBytes(of: value.littleEndian) { samples.append(contentsOf: $0) }
        }
        var wav = Data()
        func word(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) } }
        func half(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) } }
        wav.append(contentsOf: Array("RIFF".utf8))
        word(UInt32(36 + samples.count))
        wav.append(contentsOf: Array("WAVEfmt ".utf8))
        word(16)
        half(1)  // PCM
        half(1)  // mono
        word(UInt32(rate))
        word(UInt32(rate * 2))  // bytes a second
        half(2)  // bytes a frame
        half(16)  // bits a sample
        wav.append(contentsOf: Array("data".utf8))
        word(UInt32(samples.count))
        wav.append(samples)
        return wav
    }
}
