import Foundation

/// One HTTP request, already taken out of libsoup.
struct RESTRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String] = [:]
    var authorization: String? = nil
    var body: Data = Data()
}
