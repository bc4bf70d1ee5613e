import Foundation
import RelavoiCore
import RelavoiSandboxKit
import XCTest

final class RESTTests: SandboxTestCase {
    func testSessionListingPagesWithCursorUntilNull() {
        withSandbox { server, client in
            for n in 1...45 {
                server.upsertSession(SandboxSession(id: String(format: "s%02d", n), proxyNumber: "+1555000\(n)"))
            }
            server.upsertSession(SandboxSession(id: "g1", proxyNumber: "+15550999", state: "GRACE_PERIOD"))
            let token = try XCTUnwrap(client.token(from: server))
            var ids: [String] = []
            var counts: [Int] = []
            var after: String?
            repeat {
                var url = server.baseURL + "/sessions?state=ACTIVE"
                if let after { url += "&after=" + after }
                let page = client.request("GET", url, bearer: token)
                XCTAssertEqual(page.status, 200)
                guard case .array(let data)? = page.json?["data"] else { return XCTFail(page.text) }
                ids += data.compactMap { $0["id"]?.stringValue }
                guard case .int(let count)? = page.json?["pagination"]?["count"] else { return XCTFail(page.text) }
                counts.append(count)
                after = page.json?["pagination"]?["after"]?.stringValue
                if after == nil { XCTAssertEqual(page.json?["pagination"]?["after"], .null) }
            } while after != nil && counts.count < 10
            XCTAssertEqual(counts, [20, 20, 5], "default limit 20")
            XCTAssertEqual(ids, (1...45).map { String(format: "s%02d", $0) })

            let big = client.request("GET", server.baseURL + "/sessions?state=ACTIVE&limit=500", bearer: token)
            XCTAssertEqual(big.json?["pagination"]?["count"], .int(45), "limit is capped at 100, 45 exist")
            let grace = client.request("GET", server.baseURL + "/sessions?state=GRACE_PERIOD", bearer: token)
            XCTAssertEqual(grace.json?["data"], .array([try XCTUnwrap(server.session(id: "g1")).restJSONForTest]))
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions?limit=0", bearer: token).status, 400)
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions?after=bogus", bearer: token).status, 400)
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions?state=NOPE", bearer: token).status, 400)
        }
    }

    func testRESTNeedsAValidBearerToken() {
        withSandbox { server, client in
            let none = client.request("GET", server.baseURL + "/sessions")
            XCTAssertEqual(none.status, 401)
            XCTAssertEqual(none.headers["WWW-Authenticate"], "Bearer")
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions", bearer: "a.b.c").status, 401)
            let token = try XCTUnwrap(client.token(from: server))
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions", bearer: token).status, 200)
            server.expireTokens()
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions", bearer: token).status, 401)
        }
    }

    func testOneSessionAndItsCallsAnd404s() {
        withSandbox { server, client in
            server.upsertSession(
                SandboxSession(id: "s1", proxyNumber: "+15550100", metadata: ["orderId": .string("DOC-1")]))
            server.upsertSession(SandboxSession(id: "other", proxyNumber: "+15550101", tenantId: "another-tenant"))
            let token = try XCTUnwrap(client.token(from: server))
            let one = client.request("GET", server.baseURL + "/sessions/s1", bearer: token)
            XCTAssertEqual(one.status, 200)
            XCTAssertEqual(one.json?["proxyNumber"], .string("+15550100"))
            XCTAssertEqual(one.json?["state"], .string("ACTIVE"))
            XCTAssertEqual(one.json?["metadata"]?["orderId"], .string("DOC-1"))
            XCTAssertNil(one.json?["userPhones"], "phones are not exposed")
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions/nope", bearer: token).status, 404)
            let foreign = client.request("GET", server.baseURL + "/sessions/other", bearer: token)
            XCTAssertEqual(foreign.status, 404)
            XCTAssertEqual(foreign.json?["error"], .string("not_found"))

            let empty = client.request("GET", server.baseURL + "/sessions/s1/calls", bearer: token)
            XCTAssertEqual(empty.status, 200)
            XCTAssertEqual(empty.json?["data"], .array([]))
            XCTAssertEqual(empty.json?["pagination"]?["after"], .null)

            server.sendEvent(type: "call.incoming", payload: ["sessionId": .string("s1")], id: nil)
            server.sendEvent(
                type: "call.answered", payload: ["sessionId": .string("s1"), "cpaasSessionId": .string("c1")], id: nil)
            let calls = client.request("GET", server.baseURL + "/sessions/s1/calls", bearer: token)
            XCTAssertEqual(calls.json?["pagination"]?["count"], .int(1))
            guard case .array(let records)? = calls.json?["data"], let record = records.first else {
                return XCTFail(calls.text)
            }
            XCTAssertEqual(record["status"], .string("ANSWERED"))
            XCTAssertEqual(record["cpaasCallId"], .string("c1"))
            XCTAssertNotEqual(record["answeredAt"], .null)
            let answered = client.request("GET", server.baseURL + "/calls?status=ANSWERED", bearer: token)
            XCTAssertEqual(answered.json?["pagination"]?["count"], .int(1))
            let callID = try XCTUnwrap(record["id"]?.stringValue)
            XCTAssertEqual(client.request("GET", server.baseURL + "/calls/" + callID, bearer: token).status, 200)
            XCTAssertEqual(server.session(id: "s1")?.callCount, 1)
        }
    }

    func testVerifyNeedsE164AndARecentCallOnALiveSession() {
        withSandbox { server, client in
            let phone = "+14155550123"
            server.upsertSession(
                SandboxSession(
                    id: "v1", proxyNumber: "+15550100", metadata: ["orderId": .string("DOC-7")], userPhones: [phone]))
            server.upsertSession(
                SandboxSession(
                    id: "x1", proxyNumber: "+15550101", state: "EXPIRED", lastCallAt: Date(),
                    userPhones: ["+14155550999"]))
            let token = try XCTUnwrap(client.token(from: server))
            @MainActor func verify(_ query: String) -> SoupTestClient.Response {
                client.request("GET", server.baseURL + "/sessions/verify?userPhone=" + query, bearer: token)
            }
            XCTAssertEqual(verify("%2B14155550123").json, .object(["verified": .bool(false)]), "no call yet")
            server.sendEvent(type: "call.incoming", payload: ["sessionId": .string("v1")], id: nil)
            let verified = verify("%2B14155550123")
            XCTAssertEqual(verified.status, 200)
            XCTAssertEqual(verified.json?["verified"], .bool(true))
            XCTAssertEqual(verified.json?["sessionId"], .string("v1"))
            XCTAssertEqual(verified.json?["proxyNumber"], .string("+15550100"))
            XCTAssertEqual(verified.json?["metadata"], .object(["orderId": .string("DOC-7")]))
            XCTAssertEqual(verify("%2B14155550999").json?["verified"], .bool(false), "expired session")
            XCTAssertEqual(verify("%2B19995550000").json?["verified"], .bool(false), "unknown phone")
            XCTAssertEqual(verify("+14155550123").status, 400, "a bare + reads as a space")
            XCTAssertEqual(verify("14155550123").status, 400)
            XCTAssertEqual(verify("").status, 400)
            server.upsertSession(
                SandboxSession(
                    id: "v1", proxyNumber: "+15550100", lastCallAt: Date(timeIntervalSinceNow: -61), userPhones: [phone]
                ))
            XCTAssertEqual(verify("%2B14155550123").json?["verified"], .bool(false), "call older than 60 s")
        }
    }

    func testFailRESTAndResponseDelay() {
        withSandbox { server, client in
            let token = try XCTUnwrap(client.token(from: server))
            server.failREST = 500
            let failed = client.request("GET", server.baseURL + "/sessions", bearer: token)
            XCTAssertEqual(failed.status, 500)
            XCTAssertEqual(failed.json?["statusCode"], .int(500))
            XCTAssertEqual(
                client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server)).status, 200,
                "the token exchange is not REST")
            server.failREST = nil
            server.responseDelay = 0.3
            let start = Date()
            XCTAssertEqual(client.request("GET", server.baseURL + "/sessions", bearer: token).status, 200)
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.28)
        }
    }

    func testUnknownPathsAndMethods() {
        withSandbox { server, client in
            let token = try XCTUnwrap(client.token(from: server))
            XCTAssertEqual(client.request("GET", server.baseURL + "/nope", bearer: token).status, 404)
            XCTAssertEqual(client.request("DELETE", server.baseURL + "/sessions/s1", bearer: token).status, 405)
            XCTAssertEqual(client.request("GET", "http://127.0.0.1:\(server.port)/healthz").status, 200)
        }
    }
}

extension SandboxSession {
    /// What REST shows for a session, rebuilt from the public fields.
    var restJSONForTest: JSONValue {
        func date(_ date: Date?) -> JSONValue {
            date.map { .string($0.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) } ?? .null
        }
        return .object([
            "id": .string(id), "tenantId": tenantId.map(JSONValue.string) ?? .null,
            "proxyNumber": .string(proxyNumber), "state": .string(state), "directionMode": .string(directionMode),
            "recordingEnabled": .bool(recordingEnabled), "metadata": .object(metadata), "createdAt": date(createdAt),
            "activatedAt": date(activatedAt), "expiresAt": date(expiresAt), "endedAt": date(endedAt),
            "callCount": .int(callCount), "lastCallAt": date(lastCallAt),
        ])
    }
}
