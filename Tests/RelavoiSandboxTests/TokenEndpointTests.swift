import Foundation
import RelavoiCore
import RelavoiSandboxKit
import XCTest

final class TokenEndpointTests: SandboxTestCase {
    func testGoodCredentialsGetABearerJWTWithTenantAndExpiry() {
        withSandbox(.init(tokenLifetime: 120)) { server, client in
            let response = client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server))
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.json?["tokenType"], .string("Bearer"))
            XCTAssertEqual(response.json?["expiresIn"], .int(120))
            let token = try XCTUnwrap(response.json?["accessToken"]?.stringValue)
            let segments = token.split(separator: ".")
            XCTAssertEqual(segments.count, 3)
            let claims = try XCTUnwrap(Self.decodeSegment(String(segments[1])))
            XCTAssertEqual(claims["tenantId"], .string(server.options.tenantId))
            guard case .int(let exp)? = claims["exp"] else { return XCTFail("no exp claim: \(claims)") }
            XCTAssertEqual(Double(exp), Date().timeIntervalSince1970 + 120, accuracy: 5)
            XCTAssertEqual(server.tokenRequestCount, 1)
        }
    }

    func testWrongSecretIs401() {
        withSandbox { server, client in
            let response = client.request(
                "POST", server.baseURL + "/auth/token", body: credentialsBody(server, secret: "rs_wrong"))
            XCTAssertEqual(response.status, 401)
            XCTAssertEqual(response.json?["error"], .string("unauthorized"))
            XCTAssertNil(response.json?["accessToken"])
        }
    }

    func testMalformedBodiesAre400() {
        withSandbox { server, client in
            for body in ["", "{", "[1,2]", "{\"apiKey\":\"k\"}", "{\"apiKey\":1,\"apiSecret\":2}"] {
                let response = client.request("POST", server.baseURL + "/auth/token", body: body)
                XCTAssertEqual(response.status, 400, "body \(body)")
            }
            XCTAssertEqual(client.request("GET", server.baseURL + "/auth/token").status, 405)
        }
    }

    func testMoreThanTheLimitPerMinuteIs429WithRetryAfter() {
        withSandbox(.init(tokenRateLimitPerMinute: 3)) { server, client in
            let statuses = (0..<4).map { _ in
                client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server)).status
            }
            XCTAssertEqual(statuses, [200, 200, 200, 429])
            let limited = client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server))
            XCTAssertEqual(limited.status, 429)
            XCTAssertNotNil(limited.headers["Retry-After"].flatMap(Int.init))
            XCTAssertEqual(server.tokenRequestCount, 5)
        }
    }

    func testOversizedTokenRequestIsRefusedAndTheServerLivesOn() {
        withSandbox { server, client in
            let huge = "{\"apiKey\":\"" + String(repeating: "a", count: 200_000) + "\"}"
            XCTAssertEqual(client.request("POST", server.baseURL + "/auth/token", body: huge).status, 413)
            XCTAssertEqual(
                client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server)).status, 200)
        }
    }

    func testFailTokenRequestsAnswersThatStatus() {
        withSandbox { server, client in
            server.failTokenRequests = 503
            XCTAssertEqual(
                client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server)).status, 503)
            server.failTokenRequests = nil
            XCTAssertEqual(
                client.request("POST", server.baseURL + "/auth/token", body: credentialsBody(server)).status, 200)
        }
    }

    private static func decodeSegment(_ segment: String) -> JSONValue? {
        var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}
