import RelavoiCore

/// One HTTP answer of the sandbox's REST side, before libsoup sends it.
struct RESTResponse: Equatable {
    var status: Int
    var body: JSONValue
    var headers: [String: String] = [:]

    static func error(_ status: Int, _ code: String, _ message: String) -> RESTResponse {
        RESTResponse(
            status: status,
            body: .object(["error": .string(code), "message": .string(message), "statusCode": .int(status)]))
    }
}
