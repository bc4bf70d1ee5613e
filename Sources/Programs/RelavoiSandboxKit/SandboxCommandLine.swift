import Foundation
import RelavoiGLib

/// The `relavoi-sandbox` command line. The API secret never comes from argv:
/// it is read from `RELAVOI_SANDBOX_SECRET`, else the default test secret.
public struct SandboxCommandLine: Equatable, Sendable {
    public static let secretVariable = "RELAVOI_SANDBOX_SECRET"

    public var port: UInt16 = 0
    public var scenarioPath: String?
    public var verbose = false
    public var showHelp = false
    public var options = SandboxServer.Options()

    public struct UsageError: Error, CustomStringConvertible {
        public var description: String
    }

    public init() {}

    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> SandboxCommandLine
    {
        var result = SandboxCommandLine()
        if let secret = environment[secretVariable], !secret.isEmpty { result.options.apiSecret = secret }
        let parsed: CommandLineParser.Parsed
        do {
            switch try parser.parse(["relavoi-sandbox"] + arguments) {
            case .help:
                result.showHelp = true
                return result
            case .parsed(let given): parsed = given
            }
        } catch {
            guard error.kind == .missingValue, let option = error.option else {
                throw UsageError(description: error.message)
            }
            throw UsageError(description: "\(option) needs a value")
        }
        if let argument = parsed.remaining.first {
            let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
            if name == "--api-secret" || name == "--secret" {
                throw UsageError(
                    description: "secrets are never taken from the command line: set \(secretVariable) instead")
            }
            throw UsageError(description: "unknown argument \(argument) (see --help)")
        }
        for given in parsed.given {
            try result.apply(given.name, given.value ?? "")
        }
        return result
    }

    private static let parser = CommandLineParser(
        options: [
            .init("verbose", short: "v"), .init("port", value: "N"),
            .init("scenario", value: "FILE", filename: true), .init("api-key", value: "KEY"),
            .init("tenant-id", value: "UUID"), .init("token-lifetime", value: "S"), .init("ping-interval", value: "S"),
            .init("rest-latency", value: "S"), .init("token-rate-limit", value: "N"),
        ], keepsUnknownOptions: true, helpOptions: ["--help", "-h"])

    private mutating func apply(_ long: String, _ text: String) throws(UsageError) {
        let name = "--" + long
        func seconds() throws(UsageError) -> TimeInterval {
            guard let number = TimeInterval(text), number >= 0, number.isFinite else {
                throw UsageError(description: "\(name) needs a number of seconds, not \(text)")
            }
            return number
        }
        switch long {
        case "verbose": verbose = true
        case "port":
            guard let port = UInt16(text) else { throw UsageError(description: "--port needs 0-65535, not \(text)") }
            self.port = port
        case "scenario": scenarioPath = text
        case "api-key":
            options.apiKey = text
            if options.apiKey.isEmpty { throw UsageError(description: "--api-key must not be empty") }
        case "tenant-id":
            guard UUID(uuidString: text) != nil else { throw UsageError(description: "--tenant-id needs a UUID") }
            options.tenantId = text.lowercased()
        case "token-lifetime":
            options.tokenLifetime = try seconds()
            if options.tokenLifetime < 1 { throw UsageError(description: "--token-lifetime must be >= 1") }
        case "ping-interval": options.pingInterval = try seconds()
        case "rest-latency":
            options.restLatency = try seconds()
            if options.restLatency > 600 { throw UsageError(description: "--rest-latency must be <= 600") }
        case "token-rate-limit":
            guard let limit = Int(text), limit >= 0 else {
                throw UsageError(description: "--token-rate-limit needs a count (0 = unlimited)")
            }
            options.tokenRateLimitPerMinute = limit
        default: break
        }
    }

    public static let help = """
        Usage: relavoi-sandbox [options]

        A local Relavoi-compatible server on 127.0.0.1: POST /v1/auth/token,
        GET /v1/sessions..., GET /v1/calls..., and the event stream at /ws.
        Prints "READY http://127.0.0.1:PORT/v1" once listening.

        Options:
          --port N               port to bind on 127.0.0.1 (default 0: any free port)
          --scenario FILE        play FILE (see below) once listening
          --api-key KEY          accepted API key (default \(SandboxServer.Options.defaultAPIKey))
          --tenant-id UUID       the tenant (default \(SandboxServer.Options.defaultTenantId))
          --token-lifetime S     access token lifetime in seconds (default 900)
          --ping-interval S      server WebSocket ping interval, 0 = none (default 30)
          --token-rate-limit N   token requests per key per minute, 0 = unlimited (default 10)
          --rest-latency S       answer REST calls (not the token exchange) S seconds late (default 0)
          --verbose              debug logging on stderr
          --help                 this text

        The API secret is read from \(secretVariable) (never from argv);
        without it the default test secret applies (see docs/sandbox.md).
        SIGINT/SIGTERM stop the server cleanly.

        Scenario files: one JSON object per line; blank lines and lines starting
        with # are ignored. Each has "at" (seconds since the start, or since the
        last waitForClient was satisfied; never decreasing) and one action:
          {"at":1,"event":"call.incoming","payload":{"sessionId":"s1"},"id":"..."}
              envelope frame; payload gets tenantId and timestamp if missing;
              no "id" = a fresh "<ms>-<seq>" id
          {"at":1,"flat":"call.answered","fields":{"sessionId":"s1"}}
              older flat frame; gets type, tenantId and ts if missing
          {"at":2,"raw":"not json"}              one text frame as is
          {"at":3,"close":4003,"reason":"..."}   close every client with that code
          {"at":4,"drop":true}                   drop every client, no close frame
          {"at":5,"pings":false}                 stop answering "ping" / sending pings
          {"at":6,"expireToken":true}            invalidate every issued token
          {"at":0,"session":{"id":"s1","proxyNumber":"+14155550100",...}}
                                                 insert or replace a session
          {"at":7,"removeSession":"s1"}          delete a session
          {"at":7,"failREST":500}                answer REST with 500 (null = normal)
          {"at":7,"restLatency":1.5}             answer REST 1.5 s late (0 = at once)
          {"at":0,"waitForClient":true}          wait for a live client; later
                                                 "at"s count from its welcome
          {"at":8,"log":"text"}                  a log line
          {"at":9,"quit":true}                   exit
        Frames sent while no client is connected are lost (no replay).
        """
}
