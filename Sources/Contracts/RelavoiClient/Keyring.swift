import RelavoiSecret

/// The agent's item in the desktop keyring: one per API key, schema
/// `com.relavoi.Agent`, attribute `api-key` = the key (`SecretService` does
/// the libsecret calls, each bounded in time).
///
/// By hand: `secret-tool store --label='Relavoi API secret' xdg:schema
/// com.relavoi.Agent api-key rk_live_…` stores an item this finds.
public enum Keyring {
    public static let schemaName = "com.relavoi.Agent"
    public static let keyAttribute = "api-key"

    public typealias LookupResult = SecretLookup<APISecret>
    public typealias StoreError = SecretService.Failure

    public static func lookup(apiKey: String, timeout: Double = 5) -> LookupResult {
        SecretService.lookup(schema: schemaName, attributes: attributes(apiKey), timeout: timeout, as: APISecret.init)
    }

    /// Stores `secret` for `apiKey` in the default collection (which may ask
    /// the user to unlock it: hence the longer default timeout), replacing an
    /// item for the same key.
    public static func store(secret: APISecret, apiKey: String, label: String, timeout: Double = 120)
        throws(StoreError)
    {
        try SecretService.store(
            secret.value, schema: schemaName, attributes: attributes(apiKey), label: label, timeout: timeout)
    }

    /// Removes the item for `apiKey`; whether there was one.
    @discardableResult
    public static func clear(apiKey: String, timeout: Double = 5) throws(StoreError) -> Bool {
        try SecretService.clear(schema: schemaName, attributes: attributes(apiKey), timeout: timeout)
    }

    private static func attributes(_ apiKey: String) -> [String: String] { [keyAttribute: apiKey] }
}
