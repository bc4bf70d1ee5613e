import FoundationEssentials
import RelavoiCore
import RelavoiGLib

/// `open-url`: a click on a call's banner (or a panel's "Open", D-Bus
/// `Open`) opens the session's page in the person's browser (`PageOpener`).
extension CallDriver {
    /// Makes a click on banner `key` open the session's page, when `open-url` is set.
    func opensOnClick(key: String, sessionId: String) {
        guard settings.openURL != nil else { return }
        banners.onActivated(key: key) { [weak self] token in
            _ = self?.openSession(sessionId, activationToken: token)
        }
    }

    /// The session's page for `open-url`, or nil when the setting is unset or
    /// names metadata the session lacks.
    public func openURL(of sessionId: String) -> String? {
        sessionPages.url(of: sessionId)
    }

    /// Asks for the session's page to be opened (`PageOpener` logs what became
    /// of it); nil when asked, else why not (a log line too).
    public func openSession(_ sessionId: String, activationToken: String?) -> String? {
        guard let url = openURL(of: sessionId) else {
            let why =
                settings.openURL == nil
                ? "open-url is not set" : "open-url names metadata session \"\(sessionId)\" does not have"
            Log.warning("cannot open session \(sessionId): \(why)")
            return why
        }
        Log.info("opening session \(sessionId): \(url)")
        PageOpener.open(url, activationToken: activationToken, bus: Agent.sessionBus)
        return nil
    }
}
