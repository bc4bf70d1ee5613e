import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiGLib

/// Where the agent's API secret comes from, in this order:
///
/// 1. the desktop keyring (libsecret), the item for the API key
///    (`relavoi-agent login` puts it there); a keyring that is absent, locked
///    or slow (5 s) is a log line and the next source is tried;
/// 2. a file that only this user can read: `RELAVOI_API_SECRET_FILE`, else
///    the settings' `api-secret-file`. A file that is named but refused (mode,
///    owner, symlink) or unreadable is an error: the agent does not silently
///    fall back to the environment when the file the user named is unsafe;
/// 3. `RELAVOI_API_SECRET`.
///
/// Never argv. No log line or error text holds the secret.
public struct SecretSource: Sendable {
    public enum Origin: Equatable, Sendable {
        case keyring
        case file(path: String)
        case environment
    }

    public struct Resolved: Equatable, Sendable {
        public let secret: APISecret
        public let origin: Origin

        public init(secret: APISecret, origin: Origin) {
            self.secret = secret
            self.origin = origin
        }
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        /// No source had a secret (none named, none set): not set up, rather
        /// than a named file that is unsafe or unreadable.
        public var isMissing = false
    }

    public static let fileVariable = "RELAVOI_API_SECRET_FILE"
    public static let secretVariable = "RELAVOI_API_SECRET"

    public var apiKey: String?
    public var settingsSecretFile: String?
    public var environment: [String: String]
    public var keyringTimeout: Double
    /// The keyring lookup; tests replace it.
    public var keyringLookup: @Sendable (_ apiKey: String, _ timeout: Double) -> Keyring.LookupResult

    public init(
        apiKey: String?, settingsSecretFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, keyringTimeout: Double = 5,
        keyringLookup: @escaping @Sendable (String, Double) -> Keyring.LookupResult = {
            Keyring.lookup(apiKey: $0, timeout: $1)
        }
    ) {
        self.apiKey = apiKey
        self.settingsSecretFile = settingsSecretFile
        self.environment = environment
        self.keyringTimeout = keyringTimeout
        self.keyringLookup = keyringLookup
    }

    /// The file the secret would be read from, if any.
    public var secretFilePath: String? {
        let path = nonEmpty(environment[Self.fileVariable]) ?? nonEmpty(settingsSecretFile)
        return path.map(expandingHome)
    }

    public func resolve() throws(Failure) -> Resolved {
        var keyringNote = "no API key to look up in the keyring"
        if let apiKey = nonEmpty(apiKey) {
            switch keyringLookup(apiKey, keyringTimeout) {
            case .found(let secret) where !secret.value.isEmpty:
                Log.debug("API secret: from the keyring")
                return Resolved(secret: secret, origin: .keyring)
            case .found, .notFound:
                keyringNote = "the keyring has no secret for this API key"
                Log.debug("API secret: \(keyringNote)")
            case .unavailable(let reason):
                keyringNote = "keyring unavailable: \(reason)"
                Log.info("API secret: \(keyringNote); trying \(Self.fileVariable) and \(Self.secretVariable)")
            }
        }
        if let path = secretFilePath {
            do {
                let secret = try SecretFile.read(path: path)
                Log.debug("API secret: from \(path)")
                return Resolved(secret: secret, origin: .file(path: path))
            } catch {
                throw Failure(description: error.description)
            }
        }
        if let secret = nonEmpty(environment[Self.secretVariable]) {
            Log.debug("API secret: from \(Self.secretVariable)")
            return Resolved(secret: APISecret(secret), origin: .environment)
        }
        throw Failure(
            description: "no API secret (\(keyringNote); \(Self.fileVariable) and \(Self.secretVariable) are not set): "
                + "run `relavoi-agent login`, or point \(Self.fileVariable) at a file only you can read (chmod 600)",
            isMissing: true)
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/"), let home = nonEmpty(environment["HOME"]) else { return path }
        return home + path.dropFirst(1)
    }
}
