import CGLib
import CSoup
import Foundation
import RelavoiCore
import RelavoiGLib

/// What happens on the wire: HTTP answers and the WebSocket clients' lives.
extension SandboxServer {
    func serveHTTP(_ request: RESTRequest, _ message: MainThreadPointer) {
        let response = state.handle(request, now: Date())
        let isREST = !request.path.hasSuffix("/auth/token") && request.path != "/healthz"
        let delay = state.options.responseDelay + (isREST ? state.options.restLatency : 0)
        guard delay > 0 else {
            SoupMessage.respond(message.raw, response)
            return
        }
        HeldResponse.answer(message.raw, with: response, after: delay)
    }

    /// A completed upgrade: reject without a valid token (4001/4003), else welcome.
    func accept(_ socket: AcceptedSocket, token: String?) {
        handshakeCount += 1
        let client = WebSocketClient(id: nextClientID, connection: socket.connection, socket: socket.socket)
        nextClientID += 1
        clients[client.id] = client
        client.connectSignals(to: self)
        guard let token, !token.isEmpty else {
            client.close(code: 4001, reason: "token required")
            return
        }
        guard state.tokens.validate(token, now: Date()) != nil else {
            client.close(code: 4003, reason: "invalid token")
            return
        }
        client.phase = .live
        client.lastPongAt = Date()
        if answersPings { client.setPingInterval(pingSeconds) }
        let welcome: JSONValue = .object([
            "type": .string("connected"),
            "tenantId": .string(state.options.tenantId),
            "at": .int(WireTime.epochMilliseconds(Date())),
        ])
        client.send(JSONText.encode(welcome))
        framesSent += 1
        Log.debug("sandbox: client \(client.id) connected")
        onClientConnected?(client.id)
        for playback in playbacks { playback.clientConnected() }
    }

    func clientSent(_ text: String, from client: WebSocketClient) {
        receivedMessages.append(text.count > 1024 ? String(text.prefix(1024)) : text)
        if receivedMessages.count > 100 { receivedMessages.removeFirst(receivedMessages.count - 100) }
        if text == "ping", answersPings, client.phase == .live {
            client.send("pong")
            framesSent += 1
        }
    }

    func clientClosed(_ client: WebSocketClient) {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        let wasLive = client.phase == .live
        client.phase = .leaving
        Log.debug("sandbox: client \(client.id) closed")
        if wasLive { onClientDisconnected?(client.id) }
    }

    /// Sends `text` to every live client; returns how many got it.
    @discardableResult
    func broadcast(_ text: String, binary: Bool = false) -> Int {
        var count = 0
        for client in clients.values.sorted(by: { $0.id < $1.id }) where client.phase == .live {
            client.send(text, binary: binary)
            count += 1
        }
        framesSent += count
        return count
    }

    /// Removes a client from the live set now; libsoup's "closed" follows.
    func retire(_ client: WebSocketClient) {
        let wasLive = client.phase == .live
        client.phase = .leaving
        if wasLive { onClientDisconnected?(client.id) }
    }

    /// Like the real server, drop a client that answered no ping for about two intervals.
    func startPingSweep() {
        guard state.options.dropUnresponsiveClients, pingSeconds > 0 else { return }
        let interval = Double(pingSeconds)
        pingSweep = GLibTimer.repeating(every: interval) { [weak self] in
            MainActor.assumeIsolated { self?.sweepUnresponsive(interval: interval) }
        }
    }

    private func sweepUnresponsive(interval: Double) {
        guard answersPings else { return }
        let now = Date()
        for client in clients.values where client.phase == .live {
            if now.timeIntervalSince(client.lastPongAt) > 2 * interval + 1 {
                Log.info("sandbox: dropping client \(client.id): no pong")
                retire(client)
                client.drop()
            }
        }
    }
}
