import Foundation
import RelavoiCore
import RelavoiGLib

/// Live control, for tests, the demo and scenarios. Frames go to every live
/// client; with none connected they are lost, as on the real server (no replay).
extension SandboxServer {
    /// One raw text frame.
    public func send(text: String) {
        broadcast(text)
    }

    /// One binary frame (the contract has none; clients must ignore it).
    public func send(binary text: String) {
        broadcast(text, binary: true)
    }

    /// An envelope frame `{"type", "payload", "id"}`. `payload` gets `tenantId`
    /// and `timestamp` (now) when missing; `id` nil = a fresh stream id
    /// (`<epoch ms>-<seq>`), `""` = the server could not store it.
    /// Returns the id sent.
    @discardableResult
    public func sendEvent(type: String, payload: [String: JSONValue] = [:], id: String? = nil) -> String {
        let now = Date()
        var payload = payload
        if payload["tenantId"] == nil { payload["tenantId"] = .string(state.options.tenantId) }
        if payload["timestamp"] == nil { payload["timestamp"] = .string(WireTime.string(now)) }
        let eventID = id ?? state.nextEventID(now: now)
        // The event happened at its timestamp (a test may send one from the past).
        state.track(type: type, fields: payload, now: payload["timestamp"]?.stringValue.flatMap(WireTime.parse) ?? now)
        broadcast(
            JSONText.encode(.object(["type": .string(type), "payload": .object(payload), "id": .string(eventID)])))
        return eventID
    }

    /// The older flat frame: fields at the top level, time as `ts`, no `id`.
    /// `type`, `tenantId` and `ts` are filled in when missing.
    public func sendFlatEvent(type: String, fields: [String: JSONValue] = [:]) {
        let now = Date()
        var fields = fields
        if fields["type"] == nil { fields["type"] = .string(type) }
        if fields["tenantId"] == nil { fields["tenantId"] = .string(state.options.tenantId) }
        if fields["ts"] == nil { fields["ts"] = .string(WireTime.string(now)) }
        state.track(type: type, fields: fields, now: fields["ts"]?.stringValue.flatMap(WireTime.parse) ?? now)
        broadcast(JSONText.encode(.object(fields)))
    }

    /// A WebSocket close frame to every client (e.g. 4003 to force a token
    /// refresh). Invalid codes (see `isValidCloseCode`) are ignored with a warning.
    public func close(code: Int, reason: String = "") {
        guard Self.isValidCloseCode(code) else {
            Log.warning("sandbox: ignoring close with invalid code \(code)")
            return
        }
        for client in clients.values {
            retire(client)
            client.close(code: code, reason: reason)
        }
    }

    /// Abrupt disconnect of every client: TCP shut down, no close frame.
    public func dropConnections() {
        for client in clients.values {
            retire(client)
            client.drop()
        }
    }

    /// Every token issued so far becomes invalid: REST answers 401 and new
    /// WebSocket handshakes are closed with 4003. Open sockets stay open.
    public func expireTokens() {
        state.tokens.expireAll()
    }

    public func upsertSession(_ session: SandboxSession) {
        state.upsert(session)
    }

    public func removeSession(id: String) {
        state.sessions.remove(id)
    }

    /// All sessions of every tenant, in listing order.
    public var sessions: [SandboxSession] { state.sessions.all }

    public func session(id: String) -> SandboxSession? { state.sessions[id] }

    public func upsertCall(_ call: SandboxCall) {
        state.upsert(call)
    }

    /// All call records, newest first.
    public var calls: [SandboxCall] { state.calls.all }

    /// Plays `scenario` on the GLib main loop, starting now.
    @discardableResult
    public func play(_ scenario: Scenario) -> ScenarioPlayback {
        let playback = ScenarioPlayback(scenario: scenario, server: self)
        playbacks.append(playback)
        playback.start()
        return playback
    }

    func playbackFinished(_ playback: ScenarioPlayback) {
        playbacks.removeAll { $0 === playback }
    }

    /// Carries out one scenario action.
    func perform(_ action: Scenario.Action) {
        switch action {
        case .event(let type, let payload, let id): sendEvent(type: type, payload: payload, id: id)
        case .flat(let type, let fields): sendFlatEvent(type: type, fields: fields)
        case .raw(let text): send(text: text)
        case .close(let code, let reason): close(code: code, reason: reason)
        case .drop: dropConnections()
        case .pings(let on): answersPings = on
        case .expireTokens: expireTokens()
        case .session(let session): upsertSession(session)
        case .removeSession(let id): removeSession(id: id)
        case .failREST(let status): failREST = status
        case .restLatency(let seconds): restLatency = seconds
        case .log(let text): Log.message("sandbox scenario: \(text)")
        case .waitForClient: break
        case .quit:
            if let onQuit { onQuit() } else { Log.info("sandbox: scenario quit step ignored (no onQuit)") }
        }
    }
}
