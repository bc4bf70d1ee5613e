import RelavoiBanners
import RelavoiCore
import RelavoiGLib
import RelavoiSettings
import RelavoiStream

extension Agent {
    /// agent.conf changed (read and checked by `SettingsWatch`): each part is
    /// taken where it lives, without dropping the stream or a live banner.
    /// `max-banners` and `offline-notice-after` apply from the next start.
    func apply(_ new: AgentSettings) {
        guard !stopping, let callDriver else { return }
        let old = settings
        var newSecret: String?
        if new != old, new.hasSameAccount(as: old), secret != nil {
            // Some other setting changed (the window, a hand edit): the secret in
            // use stays, with no keyring lookup. A file rewritten unchanged is what
            // a new sign-in with the same key looks like, so that one is looked up.
            newSecret = secret
        } else {
            do {
                newSecret = try AccountSecret.find(for: new)
            } catch {
                Log.warning("agent.conf changed but cannot be used: \(error); the settings in use stay")
                return
            }
        }
        if newSecret == nil, let secret, new.hasSameAccount(as: old) {
            // The same account, but no secret from the keyring now (locked, slow, or a
            // failed store): that is not a sign-out, which takes the key out of the file.
            Log.warning("agent.conf changed but the keyring gave no secret; the one in use stays")
            newSecret = secret
        }
        guard new != old || newSecret != secret else { return }
        settings = new
        callDriver.settingsChanged(new)
        if new.banners != old.banners { BannerDriver.shared.settings = new.banners }
        control?.lockScreen = new.lockScreen
        if new.trayItem != old.trayItem || new.openURL != old.openURL {
            tray?.stop()
            tray = nil
            startTray()
        }
        if new.pauseMedia != old.pauseMedia || new.banners.enabled != old.banners.enabled {
            restartMediaPause()
        }
        if let newSecret, newSecret != secret || !new.hasSameAccount(as: old) {
            takeAccount(new, secret: newSecret)
        } else if newSecret == nil, secret != nil {
            Log.message("the account was removed from agent.conf: not set up")
            secret = nil
            health?.credentialsMissing()
            if let stream { Task { @MainActor in await stream.disconnect() } }
        } else {
            Log.message("settings changed: taken in place")
        }
    }

    /// `pause-media` (or banners) changed: what the old mode paused plays again,
    /// and the new mode follows the calls from their next change.
    private func restartMediaPause() {
        let previous = media
        media = nil
        Task { @MainActor in
            await previous?.stop(within: 3)
            guard !stopping, let callDriver else { return }
            media = MediaPauseDriver.start(settings: settings, calls: callDriver, bus: Self.sessionBus)
        }
    }

    /// New credentials (after `relavoi-agent login`): the stream reconnects with them.
    private func takeAccount(_ account: AgentSettings, secret newSecret: String) {
        guard let stream, let health else { return }
        let config: RelavoiConfig
        do {
            config = try RelavoiConfig(agentSettings: account)
        } catch {
            Log.warning("new credentials not used: \(error)")
            return
        }
        Log.message("credentials changed: taking them in place")
        let wasSetUp = secret != nil
        secret = newSecret
        stream.useAccount(
            apiKey: account.apiKey ?? "", apiSecret: newSecret, tenantId: account.tenantId ?? "", config: config)
        health.credentialsChanged()
        if !wasSetUp { startStream() }
    }
}
