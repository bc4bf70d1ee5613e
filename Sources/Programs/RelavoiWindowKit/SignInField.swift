/// The field of the Sign in page an inline message stands next to.
package enum SignInField: Equatable, Sendable, CaseIterable {
    case apiKey, apiSecret, phone, baseURL
    /// Under the Sign in button: not one field's fault.
    case general
}
