import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiGtk
import RelavoiI18n
import RelavoiPhone
import RelavoiSettings
import RelavoiStream

/// The Sign in page: the pair checked with the server before anything is saved, each
/// problem said next to its field; then the secret to the keyring, the rest to agent.conf,
/// and the agent started if none runs.
@MainActor
package final class SignInPage {
    private let ui: UIBuilder
    private let bus: BusConnection
    private let configPath: String
    private let onSaved: @MainActor () -> Void
    private var errors: [SignInField: Widget] = [:]
    private var shownBaseURL = ""
    private var busy = false
    package private(set) var pressedAt: Double?

    package init(ui: UIBuilder, bus: BusConnection, configPath: String, onSaved: @escaping @MainActor () -> Void) {
        self.ui = ui
        self.bus = bus
        self.configPath = configPath
        self.onSaved = onSaved
        errors = [
            .apiKey: ui.widget("api_key_error"), .apiSecret: ui.widget("api_secret_error"),
            .baseURL: ui.widget("base_url_error"), .general: ui.widget("sign_in_result"),
        ]
        ui.widget("sign_in_button").on("clicked") { [weak self] in self?.signIn() }
        for row in ["api_key_row", "api_secret_row", "phone_row", "base_url_row"] {
            ui.widget(row).on("entry-activated") { [weak self] in self?.signIn() }
        }
        ui.widget("phone_row").on("changed") { [weak self] in self?.phoneTyped() }
        // A problem said next to a field spoke of what was typed there: it goes once that
        // field is edited (a new key also makes a new pair).
        let edits: [(String, [SignInField])] = [
            ("api_key_row", [.apiKey, .apiSecret]), ("api_secret_row", [.apiSecret]), ("base_url_row", [.baseURL]),
        ]
        for (row, fields) in edits {
            ui.widget(row).on("changed") { [weak self] in self?.edited(fields) }
        }
        // GTK 4.8 sends a hidden field's characters to screen readers: the secret stays here.
        ui.widget("api_secret_row").keepSecretOffAccessibility()
        // libadwaita 1.2's password row gives its show/hide button no name: a screen reader
        // would say "button" only.
        // GTK 4.8 names an unnamed part by its type, which Orca reads out with the rest: the
        // button's icon ("GtkImage Show the API secret") and the Advanced group's lists
        // ("GtkListBox"). The icon gets the button's words (Orca says them once).
        for part in ui.widget("api_secret_row").descendants where part.typeName.hasSuffix("Button") {
            part.setAccessibleLabel(L("Show the API secret"))
            for icon in part.descendants where icon.typeName == "GtkImage" {
                icon.setAccessibleLabel(L("Show the API secret"))
            }
        }
        let groups = [
            ("sign_in_group", L("Sign in to Relavoi")), ("api_secret_group", L("API secret")),
            ("phone_group", L("Your phone number (optional)")), ("advanced_group", L("Advanced")),
        ]
        for (group, title) in groups {
            for list in ui.widget(group).descendants where list.typeName == "GtkListBox" {
                list.setAccessibleLabel(title)
            }
        }
        fill()
    }

    /// The fields from what is configured (never the secret).
    package func fill() {
        let settings =
            (try? AgentSettingsLayers.load(userPath: configPath).settings(environment: [:])) ?? AgentSettings()
        if ui.widget("api_key_row").text.isEmpty, let key = settings.apiKey { ui.widget("api_key_row").text = key }
        if ui.widget("phone_row").text.isEmpty, let phone = settings.userPhone {
            ui.widget("phone_row").text = PhoneNumberText.international(phone)
        }
        shownBaseURL = settings.baseURL
        ui.widget("base_url_row").text = settings.baseURL
    }

    package func focusFirstField() { ui.widget("api_key_row").grabFocus() }

    /// As typed: the number grouped as libphonenumber reads it, or what is still missing.
    private func phoneTyped() {
        let hint = ui.widget("phone_hint")
        hint.setStyle("error", false)
        let typed = ui.widget("phone_row").text
        switch SignInRules.phone(typed) {
        case .success(nil):
            hint.setLabel(
                L(
                    "With your number, banners say whether the other party is verified. International form, such as +234 800 000 0001."
                ))
        case .success(let number?):
            hint.setLabel(L("Will be saved as %s", PhoneNumberText.international(number)))
        case .failure:
            hint.setLabel(L("Keep typing: +, the country code, then the number."))
        }
    }

    /// Where a screen reader hears a problem: Orca speaks a new description of the object
    /// that has the focus (GTK 4.8 says nothing when a label appears): the Sign in button
    /// (pressed from the keyboard) and the field the focus goes to (its text part, whose
    /// focus GTK 4.8 reports), so the problem is said as it appears.
    private func describe(_ text: String, field: String?) {
        ui.widget("sign_in_button").setAccessibleDescription(text)
        for row in ["api_key_row", "api_secret_row", "phone_row", "base_url_row"] {
            let said = row == field ? text : ""
            ui.widget(row).setAccessibleDescription(said)
            for part in ui.widget(row).descendants where part.typeName == "GtkText" {
                part.setAccessibleDescription(said)
            }
        }
    }

    private func show(_ problem: SignInProblem) {
        let rows: [SignInField: String] = [
            .apiKey: "api_key_row", .apiSecret: "api_secret_row", .phone: "phone_row", .baseURL: "base_url_row",
        ]
        describe(problem.text, field: rows[problem.field])
        if problem.field == .phone {
            let hint = ui.widget("phone_hint")
            hint.setLabel(problem.text)
            hint.setStyle("error", true)
            ui.widget("phone_row").grabFocus()
            return
        }
        guard let label = errors[problem.field] else { return }
        label.setLabel(problem.text)
        label.setStyle("error", true)
        label.isVisible = true
        switch problem.field {
        case .apiKey: ui.widget("api_key_row").grabFocus()
        case .apiSecret: ui.widget("api_secret_row").grabFocus()
        case .baseURL:
            ui.widget("advanced_row").isExpanded = true
            ui.widget("base_url_row").grabFocus()
        default: break
        }
    }

    private func edited(_ fields: [SignInField]) {
        let shown = fields.compactMap { errors[$0] }.filter(\.isVisible)
        guard !shown.isEmpty else { return }
        for label in shown {
            label.isVisible = false
            label.setLabel("")
        }
        describe("", field: nil)
    }

    private func clearProblems() {
        describe("", field: nil)
        for label in errors.values {
            label.isVisible = false
            label.setLabel("")
        }
        ui.widget("phone_hint").setStyle("error", false)
        phoneTyped()
    }

    private func setBusy(_ on: Bool) {
        busy = on
        ui.widget("sign_in_button").isSensitive = !on
        ui.widget("sign_in_spinner").isVisible = on
        ui.widget("sign_in_spinner").setSpinning(on)
    }

    package func signIn() {
        guard !busy else { return }
        pressedAt = GLibTimer.now()
        clearProblems()
        let key: String
        let secret: String
        let phone: String?
        do {
            key = try SignInRules.key(ui.widget("api_key_row").text).get()
            secret = try SignInRules.secret(ui.widget("api_secret_row").secretText).get()
            phone = try SignInRules.phone(ui.widget("phone_row").text).get()
        } catch {
            return show(error)
        }
        // Where to check: the agent's own settings rules (LoginTarget), the typed address winning.
        let existing: [String: String]
        do {
            existing = try AgentSettingsLayers.load(userPath: configPath).merged
        } catch {
            return show(SignInProblem(.general, L("Cannot read %s: %s", configPath, "\(error)")))
        }
        let typedURL = ui.widget("base_url_row").text.trimmingWhitespace()
        let newBaseURL = typedURL.isEmpty || typedURL == shownBaseURL ? nil : typedURL
        let target: LoginTarget
        switch LoginTarget.resolve(baseURL: newBaseURL, userPhone: nil, existing: existing, environment: [:]) {
        case .success(let resolved): target = resolved
        case .failure(let error) where error.key == Setting.baseURL.key:
            return show(
                SignInProblem(
                    .baseURL, L("This is not a server address: it starts with https:// (or http:// on this computer)."))
            )
        case .failure(let error):
            return show(SignInProblem(.general, L("A setting in %s cannot be used: %s", configPath, "\(error)")))
        }
        setBusy(true)
        let result = errors[.general]!
        result.setStyle("error", false)
        result.setLabel(L("Checking with %s…", target.settings.baseURL))
        result.isVisible = true
        Task { @MainActor [weak self] in
            let answer = await CredentialCheck.run(apiKey: key, apiSecret: secret, config: target.config)
            self?.checked(
                answer, key: key, secret: secret, phone: phone, baseURL: newBaseURL, target: target)
        }
    }

    private func checked(
        _ answer: CredentialCheckResult, key: String, secret: String, phone: String?, baseURL: String?,
        target: LoginTarget
    ) {
        defer { setBusy(false) }
        let tenant: String
        do {
            let token = try SignInRules.answer(answer, server: target.settings.baseURL).get()
            tenant = try SignInRules.tenant(token: token, configured: target.configuredTenant).get()
        } catch {
            errors[.general]!.isVisible = false
            return show(error)
        }
        // The check passed: the secret first (nothing else is written when the keyring fails).
        do {
            try Keyring.store(secret: APISecret(secret), apiKey: key, label: "Relavoi API secret (\(key.prefix(12))…)")
        } catch {
            return show(
                SignInProblem(
                    .general,
                    L("The keyring could not store the API secret (%s); nothing was saved.", error.description)))
        }
        var values: [(key: String, value: String)] = [(Setting.apiKey.key, key), (Setting.tenantId.key, tenant)]
        if let phone { values.append((Setting.userPhone.key, phone)) }
        if let baseURL { values.append((Setting.baseURL.key, baseURL)) }
        do {
            try AgentSettingsWriter.set(values, path: configPath)
        } catch {
            _ = try? Keyring.clear(apiKey: key)
            return show(SignInProblem(.general, L("The settings could not be saved: %s", error.description)))
        }
        if let baseURL { shownBaseURL = baseURL }
        ui.widget("api_secret_row").text = ""
        let result = errors[.general]!
        result.setLabel(L("Signed in. Connecting…"))
        result.isVisible = true
        AgentStarter.start(bus: bus) { started in
            if !started {
                result.setLabel(
                    L("Signed in, but Relavoi could not be started. Log out and in again to start it."))
            }
        }
        onSaved()
    }

    /// The agent said connected after a Sign in of this window.
    package func connected() {
        let result = errors[.general]!
        result.setLabel(L("Connected"))
        result.isVisible = true
        if let pressedAt {
            let hundredths = Int(((GLibTimer.now() - pressedAt) * 100).rounded())
            StandardStreams.output(
                "relavoi-window: connected \(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s after Sign in\n"
            )
            self.pressedAt = nil
        }
    }
}
